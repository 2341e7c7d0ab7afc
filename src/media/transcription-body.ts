import {
  MaxFileSizeExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  type MultipartPart,
  parseMultipartRequest,
} from "@remix-run/multipart-parser";
import { badRequest } from "../errors";
import { refused } from "./request-fields";
import { type AudioUpload, audioMediaType, granularitiesOf, type TranscriptionRequest, tooLarge } from "./transcription-request";

/**
 * The two bodies POST /audio/transcriptions takes: an OpenAI-style multipart upload, parsed here
 * as it arrives under a size limit, or the SDK's JSON STTRequest with base64 audio. Both become
 * one TranscriptionRequest whose file holds the client's bytes unchanged.
 */

/** Room for the form's other fields and its boundaries beside the file. */
export const FORM_OVERHEAD = 64 * 1024;

/** The extension of a file name, lower case: "talk.WAV" → "wav". */
const extensionOf = (name: string): string => /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? "";

/**
 * The parts of a multipart upload of at most `maxFile` bytes of file. A 413 as soon as the
 * Content-Length, or the bytes read so far, show more than that: the rest is never read. The
 * file's bytes stay in the chunks the parser cut them into (views of what arrived), never joined.
 */
async function partsOf(request: Request, maxFile: number): Promise<{ fields: Map<string, string[]>; file: AudioUpload | null }> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > maxFile + FORM_OVERHEAD) throw tooLarge("file", maxFile);
  const fields = new Map<string, string[]>();
  let file: AudioUpload | null = null;
  try {
    for await (const part of parseMultipartRequest(request, { maxFileSize: maxFile, maxTotalSize: maxFile + FORM_OVERHEAD })) {
      const name = part.name ?? "";
      if (name === "file" && part.filename !== undefined) file = uploadOf(part);
      else fields.set(name, [...(fields.get(name) ?? []), part.text]);
    }
  } catch (err) {
    if (err instanceof MaxFileSizeExceededError || err instanceof MaxTotalSizeExceededError) throw tooLarge("file", maxFile);
    if (err instanceof MultipartParseError) throw badRequest(`Request body is not a readable multipart/form-data upload: ${err.message}`, { field: "file" });
    throw err;
  }
  return { fields, file };
}

const uploadOf = (part: MultipartPart): AudioUpload => ({
  name: part.filename || "audio",
  type: part.mediaType ?? "application/octet-stream",
  size: part.size,
  chunks: part.content,
});

function numberField(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n)) refused(name, `${name} must be a number (got ${JSON.stringify(raw)})`);
  return n;
}

function traceField(raw: string | undefined): Record<string, unknown> | undefined {
  if (raw === undefined) return undefined;
  try {
    const trace = JSON.parse(raw) as unknown;
    if (trace && typeof trace === "object" && !Array.isArray(trace)) return trace as Record<string, unknown>;
  } catch {}
  return refused("trace", "trace must be a JSON object");
}

const optional = <K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));

/** A multipart upload (file, model, language, response_format, temperature, timestamp_granularities[], session_id, trace, user), as the SDK and the openai client send it. */
export async function uploadRequest(request: Request, maxFile: number): Promise<TranscriptionRequest> {
  const { fields, file } = await partsOf(request, maxFile);
  const one = (name: string) => fields.get(name)?.[0];
  if (!file) refused("file", "file is required: the audio to transcribe, as a multipart file field");
  const model = one("model");
  if (!model) refused("model", "model is required");
  const granularities = fields.get("timestamp_granularities[]") ?? [];
  return {
    model,
    file,
    format: extensionOf(file.name),
    audioField: "file",
    ...optional("language", one("language")),
    ...optional("response_format", one("response_format")),
    ...optional("temperature", numberField("temperature", one("temperature"))),
    ...(granularities.length > 0 ? { timestamp_granularities: granularitiesOf(granularities) } : {}),
    ...optional("session_id", one("session_id")),
    ...optional("user", one("user")),
    ...optional("trace", traceField(one("trace"))),
  };
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The JSON STTRequest's fields the gateway reads. */
export type TranscriptionJsonFields = Omit<TranscriptionRequest, "file" | "format" | "audioField" | "timestamp_granularities"> & {
  input_audio?: { data?: unknown; format?: unknown } | null;
  timestamp_granularities?: string[];
};

/** The SDK's JSON body (STTRequest): the base64 audio becomes a file named `audio.<format>`. */
export function jsonRequest(body: TranscriptionJsonFields): TranscriptionRequest {
  const { input_audio: audio, timestamp_granularities, ...rest } = body;
  if (!audio) refused("input_audio", "input_audio is required: {data: base64 audio, format}");
  const data = audio.data;
  if (typeof data !== "string" || data === "") refused("input_audio.data", "input_audio.data must be the audio as a non-empty base64 string");
  const clean = data.replace(/\s+/g, "");
  if (clean.length % 4 === 1 || !BASE64.test(clean)) refused("input_audio.data", "input_audio.data is not base64");
  const format = typeof audio.format === "string" ? audio.format.toLowerCase() : "";
  if (format === "") refused("input_audio.format", "input_audio.format is required (wav, mp3, ...)");
  const bytes = Buffer.from(clean, "base64");
  return {
    ...rest,
    ...(timestamp_granularities ? { timestamp_granularities: granularitiesOf(timestamp_granularities) } : {}),
    file: { name: `audio.${format}`, type: audioMediaType(format), size: bytes.byteLength, chunks: [bytes] },
    format,
    audioField: "input_audio",
  };
}
