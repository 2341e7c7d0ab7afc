import type { MediaProvider, SpeechEndpoint, TranscriptionEndpoint } from "../media-catalog";
import { type MultipartBody, multipartBody } from "../multipart-body";
import { passthroughOf } from "../request-fields";
import { DEFAULT_SPEECH_FORMAT, type SpeechRequest } from "../speech-request";
import type { TranscriptionRequest } from "../transcription-request";

/**
 * OpenAI's Audio API (platform.openai.com/docs/api-reference/audio): POST {base_url}/audio/speech
 * (JSON in, audio bytes out) and POST {base_url}/audio/transcriptions (multipart in, JSON out).
 */
export const speechUrl = (provider: MediaProvider): string => `${provider.baseUrl}/audio/speech`;
export const transcriptionsUrl = (provider: MediaProvider): string => `${provider.baseUrl}/audio/transcriptions`;

/** The speech body, exactly: the endpoint's model, the input, the voice (its first by default), the format, speed where the endpoint takes it, allowed passthrough. */
export function speechBody(body: SpeechRequest, e: SpeechEndpoint): Record<string, unknown> {
  return {
    model: e.upstreamModel,
    input: body.input,
    voice: body.voice ?? e.voices[0],
    response_format: body.response_format ?? DEFAULT_SPEECH_FORMAT,
    ...(body.speed !== undefined && e.speed ? { speed: body.speed } : {}),
    ...passthroughOf(body.provider?.options, e),
  };
}

const AUDIO_TYPES: Readonly<Record<string, string>> = {
  mp3: "audio/mpeg",
  pcm: "audio/pcm",
  wav: "audio/wav",
  opus: "audio/opus",
  aac: "audio/aac",
  flac: "audio/flac",
};

/** The answer's Content-Type: the upstream's when it names audio, else the format's. */
export function speechContentType(upstream: string | null, format: string): string {
  return upstream?.toLowerCase().startsWith("audio/") ? upstream : (AUDIO_TYPES[format] ?? "application/octet-stream");
}

/**
 * The transcription form, exactly: the client's file (its bytes and name unchanged), the
 * endpoint's model, the answer format (the client's, json by default), and when given the
 * language, temperature and one timestamp_granularities[] field per value.
 */
export function transcriptionForm(req: TranscriptionRequest, e: TranscriptionEndpoint): MultipartBody {
  const fields: Array<[string, string]> = [
    ["model", e.upstreamModel],
    ["response_format", req.response_format ?? "json"],
  ];
  if (req.language !== undefined) fields.push(["language", req.language]);
  if (req.temperature !== undefined) fields.push(["temperature", String(req.temperature)]);
  for (const g of req.timestamp_granularities ?? []) fields.push(["timestamp_granularities[]", g]);
  for (const [name, value] of Object.entries(passthroughOf(req.provider?.options, e)))
    fields.push([name, typeof value === "string" ? value : JSON.stringify(value)]);
  return multipartBody({ field: "file", ...req.file }, fields);
}

/** A transcription answer: the text, the seconds the upstream billed (usage of type duration), and verbose_json's details. */
export type UpstreamTranscript = {
  text: string;
  billedSeconds: number | null;
  duration: number | null;
  verbose: Partial<Record<"task" | "language" | "duration" | "segments" | "words", unknown>>;
};

/** The answer's text and seconds; null when it is not a transcription. */
export function decodeTranscript(json: unknown): UpstreamTranscript | null {
  const j = json as { text?: unknown; usage?: { type?: unknown; seconds?: unknown }; duration?: unknown } | null;
  if (!j || typeof j.text !== "string") return null;
  const seconds = j.usage?.type === "duration" && typeof j.usage.seconds === "number" && j.usage.seconds >= 0 ? j.usage.seconds : null;
  const verbose = Object.fromEntries(
    (["task", "language", "duration", "segments", "words"] as const)
      .filter((k) => (j as Record<string, unknown>)[k] !== undefined)
      .map((k) => [k, (j as Record<string, unknown>)[k]]),
  );
  return { text: j.text, billedSeconds: seconds, duration: typeof j.duration === "number" && j.duration >= 0 ? j.duration : null, verbose };
}
