import type { AppContext } from "../../app-context";
import { GatewayError } from "../../errors";
import type { RequestShape } from "../../gateway/generation";
import type { Principal } from "../../http/principal";
import { mediaCatalogOf } from "../../media/build-media-catalog";
import { transcriptionContent } from "../../media/media-content";
import { beforeAdmission, capturedText, costOf, mediaEnd, openMediaGeneration, startMediaRequest, usdOf } from "../../media/media-generation";
import { mediaCandidates } from "../../media/media-route";
import type { TranscriptionJsonFields } from "../../media/transcription-body";
import { FORM_OVERHEAD, jsonRequest } from "../../media/transcription-body";
import { checkTranscriptionRequest, headOf, largestFile, type TranscriptionRequest, wavSeconds } from "../../media/transcription-request";
import { promptInput } from "../../observability/capture/request-content";
import type { TranscriptionResult } from "./model";
import { transcriptionOperation } from "./operation";

/** The largest file the route reads: the largest any transcription model takes. */
export const largestUpload = (ctx: Pick<AppContext, "config">): number => largestFile(mediaCatalogOf(ctx.config).models("transcription"));

/** The largest body the route reads: that file, and the form (or the JSON) around it. */
export const uploadLimit = (ctx: Pick<AppContext, "config">): number => largestUpload(ctx) + FORM_OVERHEAD;

/** Reads the multipart upload the route holds, as it arrives (after auth, under the size limit). */
export type UploadReader = (maxFile: number) => Promise<TranscriptionRequest>;

/** The request as sent: the JSON body, or the multipart upload still to read. */
async function requestOf(
  ctx: AppContext,
  json: TranscriptionJsonFields | null | undefined,
  http: RequestShape,
  readUpload: UploadReader,
): Promise<TranscriptionRequest> {
  if (json) return jsonRequest(json);
  const contentType = http.headers.get("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data"))
    throw new GatewayError(400, "Send a JSON STTRequest (input_audio) or a multipart/form-data upload (file)", { field: "input_audio" });
  return readUpload(largestUpload(ctx));
}

/** Seconds as billed: the upstream's duration usage, else verbose_json's duration, else the WAV header's, else the endpoint's longest. */
function secondsOf(req: TranscriptionRequest, billed: number | null, duration: number | null, maxSeconds: number): number {
  if (billed !== null) return billed;
  if (duration !== null) return duration;
  return wavSeconds(headOf(req.file)) ?? maxSeconds;
}

/**
 * POST /audio/transcriptions: an operation of the generation lifecycle over the model's
 * openai-audio endpoints. The longest audio an endpoint takes is reserved at its price per
 * second; the seconds transcribed are charged at the serving one's; one record with api_type "stt".
 */
export async function createTranscription(
  ctx: AppContext,
  principal: Principal,
  json: TranscriptionJsonFields | null | undefined,
  http: RequestShape,
  readUpload: UploadReader,
): Promise<{ body: TranscriptionResult; headers: Record<string, string> }> {
  const start = startMediaRequest(ctx);
  const { req, model, candidates } = await beforeAdmission(start, async () => {
    const req = await requestOf(ctx, json, http, readUpload);
    const model = mediaCatalogOf(ctx.config).get("transcription", req.model);
    if (!model)
      throw new GatewayError(404, `Model ${req.model} is not a transcription model of this gateway (see GET /api/v1/models?output_modalities=transcription)`, {
        field: "model",
      });
    const taking = checkTranscriptionRequest(req, model);
    return { req, model, candidates: await mediaCandidates(ctx, principal, { ...model, endpoints: taking }, req.provider ?? {}) };
  });
  const { file, audioField: _field, ...parameters } = req;
  const generation = await openMediaGeneration(ctx, start, {
    apiType: "stt",
    operation: "stt",
    principal,
    http,
    model,
    body: req,
    candidates,
    worstCase: (c) => c.endpoint.maxDurationSeconds * c.endpoint.nanosPerSecond,
    input: () => promptInput(`${file.name} (${file.type || "audio"}, ${file.size} bytes)`, parameters),
    content: transcriptionContent(req),
  });

  // what goes upstream: the audio's bytes as sent, a passed-through prompt as the content filters left it
  const attempted = await generation.attempt(transcriptionOperation(generation.request ?? req, ctx.config.routing.firstByteTimeoutMs));
  if (!attempted.ok) throw await generation.fail(attempted);

  const { value, candidate } = attempted;
  const seconds = secondsOf(req, value.billedSeconds, value.duration, candidate.endpoint.maxDurationSeconds);
  const cost = costOf(seconds * candidate.endpoint.nanosPerSecond, "prompt");
  await generation.settle(attempted, mediaEnd(cost, { output: generation.facts.observe ? capturedText(value.text) : null }));
  const verbose = req.response_format === "verbose_json" ? value.verbose : {};
  return { body: { ...verbose, text: value.text, usage: { seconds, cost: usdOf(cost) } }, headers: start.idHeader };
}
