import type { UpstreamOperation } from "../../gateway/generation";
import { decodeTranscript, transcriptionForm, transcriptionsUrl, type UpstreamTranscript } from "../../media/apis/openai-audio";
import { jsonAnswer, mediaOperation, unreadableAnswer } from "../../media/media-call";
import type { TranscriptionEndpoint } from "../../media/media-catalog";
import type { MediaCandidate } from "../../media/media-route";
import type { TranscriptionRequest } from "../../media/transcription-request";

/** Transcription as a fallback-loop operation: one multipart POST /audio/transcriptions to one candidate. */
export function transcriptionOperation(
  req: TranscriptionRequest,
  firstByteTimeoutMs: number,
): UpstreamOperation<UpstreamTranscript, MediaCandidate<TranscriptionEndpoint>> {
  return mediaOperation<TranscriptionEndpoint, UpstreamTranscript>(
    firstByteTimeoutMs,
    ({ endpoint }) => ({ url: transcriptionsUrl(endpoint.provider), form: transcriptionForm(req, endpoint) }),
    async (res) => {
      const answer = await jsonAnswer(res, "transcription response");
      if (!answer.ok) return answer;
      const transcript = decodeTranscript(answer.json);
      return transcript ? { ok: true, value: transcript } : unreadableAnswer("transcription response", answer.json);
    },
  );
}
