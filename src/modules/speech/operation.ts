import type { UpstreamOperation } from "../../gateway/generation";
import { speechBody, speechUrl } from "../../media/apis/openai-audio";
import { mediaOperation, unreadableAnswer } from "../../media/media-call";
import type { SpeechEndpoint } from "../../media/media-catalog";
import type { MediaCandidate } from "../../media/media-route";
import type { SpeechRequest } from "../../media/speech-request";

/** An answer known to be usable: its first bytes, the rest still to read, and the upstream's Content-Type. */
export type SpeechAudio = { first: Uint8Array; rest: ReadableStreamDefaultReader<Uint8Array>; contentType: string | null; firstByteAt: number };

/** Speech as a fallback-loop operation: POST /audio/speech to one candidate, served once its first audio bytes arrived. */
export function speechOperation(
  body: SpeechRequest,
  firstByteTimeoutMs: number,
  clock: () => number,
): UpstreamOperation<SpeechAudio, MediaCandidate<SpeechEndpoint>> {
  return mediaOperation<SpeechEndpoint, SpeechAudio>(
    firstByteTimeoutMs,
    ({ endpoint }) => ({ url: speechUrl(endpoint.provider), json: speechBody(body, endpoint), accept: "audio/*" }),
    async (res) => {
      const rest = res.body!.getReader();
      for (;;) {
        const read = await rest.read();
        // an answer without audio is no answer: another endpoint may make one
        if (read.done) return unreadableAnswer("speech response (no audio)", "");
        if (read.value.byteLength > 0)
          return { ok: true, value: { first: read.value, rest, contentType: res.headers.get("content-type"), firstByteAt: clock() } };
      }
    },
  );
}
