import { badRequest } from "../errors";
import type { MediaModel, SpeechEndpoint } from "./media-catalog";
import { checkIn, checkPassthrough, type MediaCallerFields, refused, unionOf } from "./request-fields";

/** What of a speech request the gateway reads (the SDK's SpeechRequest, snake_case). */
export type SpeechRequest = MediaCallerFields & { model: string; input: string; voice?: string; response_format?: string; speed?: number };

/** The SDK sends pcm when the caller names no format. */
export const DEFAULT_SPEECH_FORMAT = "pcm";

/** Characters as billed: Unicode code points. */
export const characters = (text: string): number => [...text].length;

const takes = (e: SpeechEndpoint, body: SpeechRequest, chars: number) =>
  chars <= e.maxInputChars &&
  (body.voice === undefined || e.voices.includes(body.voice)) &&
  e.responseFormats.includes(body.response_format ?? DEFAULT_SPEECH_FORMAT);

/** Checks the request against the model's endpoints (a 400 names the field and the allowed values, or the maximum), then keeps those that take it all, in order. */
export function checkSpeechRequest(body: SpeechRequest, model: MediaModel<SpeechEndpoint>): SpeechEndpoint[] {
  const { id, endpoints } = model;
  if (body.input === "") refused("input", "input must not be empty");
  const chars = characters(body.input);
  const maxChars = Math.max(...endpoints.map((e) => e.maxInputChars));
  if (chars > maxChars) throw badRequest(`input is ${chars} characters; ${id} takes at most ${maxChars}`, { field: "input", maximum: maxChars });
  checkIn(
    "voice",
    body.voice,
    unionOf(endpoints, (e) => e.voices),
    id,
  );
  checkIn(
    "response_format",
    body.response_format ?? DEFAULT_SPEECH_FORMAT,
    unionOf(endpoints, (e) => e.responseFormats),
    id,
  );
  checkPassthrough(body.provider?.options, endpoints, id);
  const candidates = endpoints.filter((e) => takes(e, body, chars));
  if (candidates.length === 0) {
    const given = (["voice", "response_format"] as const).filter((f) => body[f] !== undefined);
    throw badRequest(`no endpoint of ${id} takes this combination of input length${given.map((f) => `, ${f}`).join("")}`, { fields: ["input", ...given] });
  }
  return candidates;
}
