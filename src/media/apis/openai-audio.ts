import type { MediaProvider, SpeechEndpoint } from "../media-catalog";
import { passthroughOf } from "../request-fields";
import { DEFAULT_SPEECH_FORMAT, type SpeechRequest } from "../speech-request";

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

const AUDIO_TYPES: Readonly<Record<string, string>> = { mp3: "audio/mpeg", pcm: "audio/pcm", wav: "audio/wav", opus: "audio/opus", aac: "audio/aac", flac: "audio/flac" };

/** The answer's Content-Type: the upstream's when it names audio, else the format's. */
export function speechContentType(upstream: string | null, format: string): string {
  return upstream?.toLowerCase().startsWith("audio/") ? upstream : (AUDIO_TYPES[format] ?? "application/octet-stream");
}
