import { badRequest, GatewayError } from "../errors";
import type { MediaModel, TranscriptionEndpoint } from "./media-catalog";
import { checkIn, checkPassthrough, type MediaCallerFields, refused, unionOf } from "./request-fields";

/** The answers an upstream is asked for: the SDK's STTResponse shapes. */
export const TRANSCRIPTION_FORMATS = ["json", "verbose_json"] as const;
export const GRANULARITIES = ["word", "segment"] as const;

/** The audio as the client sent it: its bytes in the chunks they arrived in (never joined), its name and Content-Type. */
export type AudioUpload = { name: string; type: string; size: number; chunks: readonly Uint8Array[] };

/** A transcription request, from JSON (STTRequest) or a multipart upload, as the operation reads it. */
export type TranscriptionRequest = MediaCallerFields & {
  model: string;
  /** the audio, its bytes as the client sent them, with the name it goes upstream under */
  file: AudioUpload;
  /** the audio's format: input_audio.format, or the file name's extension */
  format: string;
  /** which field carried the audio, for the messages that name it */
  audioField: "input_audio" | "file";
  language?: string;
  response_format?: string;
  temperature?: number;
  timestamp_granularities?: string[];
};

const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round((bytes / MB) * 100) / 100;

const MEDIA_TYPES: Readonly<Record<string, string>> = {
  wav: "audio/wav",
  mp3: "audio/mpeg",
  mpeg: "audio/mpeg",
  mpga: "audio/mpeg",
  m4a: "audio/mp4",
  mp4: "audio/mp4",
  flac: "audio/flac",
  ogg: "audio/ogg",
  webm: "audio/webm",
};

/** The Content-Type an audio format is sent under when the client gave no file of its own. */
export const audioMediaType = (format: string): string => MEDIA_TYPES[format] ?? "application/octet-stream";

/** The largest file any transcription model takes: a body that cannot fit under it is refused before it is read. */
export const largestFile = (models: readonly MediaModel<TranscriptionEndpoint>[]): number =>
  Math.max(0, ...models.flatMap((m) => m.endpoints.map((e) => e.maxFileBytes)));

/** A 413 naming the field that carries the audio and the largest size taken. */
export function tooLarge(field: string, maxBytes: number, sizeBytes?: number): GatewayError {
  const size = sizeBytes === undefined ? "" : ` (${mb(sizeBytes)} MB)`;
  return new GatewayError(413, `${field} is too large${size}: at most ${mb(maxBytes)} MB (max_file_mb)`, { field, maximum_mb: mb(maxBytes) });
}

/** `timestamp_granularities[]` repeated, or one field with the values comma-joined (SDK 1.3.19 sends `word,segment`). */
export const granularitiesOf = (values: readonly string[]): string[] =>
  values
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);

/**
 * Checks the request against the model's endpoints: the format (a 400 naming the audio's field and
 * the formats taken), the answer format, the granularities, passthrough; a file larger than every
 * endpoint takes is a 413. Keeps the endpoints that take it all, in order.
 */
export function checkTranscriptionRequest(req: TranscriptionRequest, model: MediaModel<TranscriptionEndpoint>): TranscriptionEndpoint[] {
  const { id, endpoints } = model;
  const formatField = req.audioField === "input_audio" ? "input_audio.format" : "file";
  const formats = unionOf(endpoints, (e) => e.inputFormats);
  if (!formats.includes(req.format))
    refused(formatField, `${formatField}: audio format ${JSON.stringify(req.format)} is not taken by ${id}; allowed values: ${formats.join(", ")}`, formats);
  checkIn("response_format", req.response_format, [...TRANSCRIPTION_FORMATS], id);
  req.timestamp_granularities?.forEach((g) => checkIn("timestamp_granularities", g, [...GRANULARITIES], id));
  checkPassthrough(req.provider?.options, endpoints, id);
  const largest = Math.max(...endpoints.map((e) => e.maxFileBytes));
  if (req.file.size > largest) throw tooLarge(req.audioField, largest, req.file.size);
  const candidates = endpoints.filter((e) => e.inputFormats.includes(req.format) && req.file.size <= e.maxFileBytes);
  if (candidates.length === 0) throw badRequest(`no endpoint of ${id} takes ${req.format} audio of ${mb(req.file.size)} MB`, { fields: [formatField] });
  return candidates;
}

/** The first `n` bytes of an upload (its header, for wavSeconds). */
export function headOf(file: AudioUpload, n = 64 * 1024): Uint8Array {
  const head = new Uint8Array(Math.min(n, file.size));
  let at = 0;
  for (const chunk of file.chunks) {
    if (at >= head.length) break;
    const piece = chunk.subarray(0, head.length - at);
    head.set(piece, at);
    at += piece.length;
  }
  return head;
}

/**
 * The duration of a PCM WAV file from its header (RIFF: the `fmt ` chunk's byte rate, the `data`
 * chunk's size), or null when the bytes are not such a file.
 */
export function wavSeconds(bytes: Uint8Array): number | null {
  if (bytes.length < 12) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (tag(0) !== "RIFF" || tag(8) !== "WAVE") return null;
  let byteRate = 0;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const size = view.getUint32(at + 4, true);
    if (tag(at) === "fmt " && at + 16 <= bytes.length) byteRate = view.getUint32(at + 16, true);
    if (tag(at) === "data") return byteRate > 0 ? size / byteRate : null;
    at += 8 + size + (size % 2);
  }
  return null;
}
