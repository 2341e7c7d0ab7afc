import type { AppContext } from "../../app-context";
import { GatewayError } from "../../errors";
import type { Generation, RequestShape, Served } from "../../gateway/generation";
import type { Principal } from "../../http/principal";
import { speechContentType } from "../../media/apis/openai-audio";
import { mediaCatalogOf } from "../../media/build-media-catalog";
import type { SpeechEndpoint } from "../../media/media-catalog";
import { speechContent } from "../../media/media-content";
import { beforeAdmission, capturedText, costOf, mediaEnd, openMediaGeneration, startMediaRequest } from "../../media/media-generation";
import { type MediaCandidate, mediaCandidates } from "../../media/media-route";
import { characters, checkSpeechRequest, DEFAULT_SPEECH_FORMAT, type SpeechRequest } from "../../media/speech-request";
import { promptInput } from "../../observability/capture/request-content";
import type { SpeechRequestBody } from "./model";
import { type SpeechAudio, speechOperation } from "./operation";

/**
 * POST /audio/speech: an operation of the generation lifecycle over the model's openai-audio
 * endpoints. The input's characters are reserved at the dearest candidate's price and charged at
 * the serving one's; the audio goes to the client as it arrives, and the stream ends once the
 * record (api_type "tts") is durable.
 */
export async function createSpeech(ctx: AppContext, principal: Principal, body: SpeechRequestBody, http: RequestShape): Promise<Response> {
  const start = startMediaRequest(ctx);
  const { model, candidates } = await beforeAdmission(start, async () => {
    const model = mediaCatalogOf(ctx.config).get("speech", body.model);
    if (!model)
      throw new GatewayError(404, `Model ${body.model} is not a speech model of this gateway (see GET /api/v1/models?output_modalities=speech)`, {
        field: "model",
      });
    const taking = checkSpeechRequest(body, model);
    return { model, candidates: await mediaCandidates(ctx, principal, { ...model, endpoints: taking }, body.provider ?? {}) };
  });
  const { input, ...parameters } = body;
  const requested = characters(input);
  const generation = await openMediaGeneration(ctx, start, {
    apiType: "tts",
    operation: "tts",
    principal,
    http,
    model,
    body,
    candidates,
    worstCase: (c) => requested * c.endpoint.nanosPerCharacter,
    input: () => promptInput(input, parameters),
    content: speechContent(body),
  });
  // what goes upstream, and is charged by its characters: the input as the content filters left it
  const spoken = generation.request ?? body;
  const chars = characters(spoken.input);
  const attempted = await generation.attempt(speechOperation(spoken, ctx.config.routing.firstByteTimeoutMs, ctx.clock));
  if (!attempted.ok) throw await generation.fail(attempted);
  const contentType = speechContentType(attempted.value.contentType, body.response_format ?? DEFAULT_SPEECH_FORMAT);
  const stream = relay(generation, attempted, chars, contentType, http.signal);
  return new Response(stream, { headers: { "content-type": contentType, ...start.idHeader } });
}

type Speech = Generation<MediaCandidate<SpeechEndpoint>, SpeechRequest>;

/**
 * The upstream's audio as the client's body, chunk by chunk as it arrives. Its end waits for the
 * record: a stream that ends cleanly was recorded and charged (a failed commit errors it instead).
 * The upstream failing midway is recorded at no cost; a client that leaves is charged the input,
 * which the upstream took whole.
 */
function relay(
  generation: Speech,
  served: Served<SpeechAudio, MediaCandidate<SpeechEndpoint>>,
  chars: number,
  contentType: string,
  clientSignal: AbortSignal,
): ReadableStream<Uint8Array> {
  const { first, rest, firstByteAt } = served.value;
  const cost = costOf(chars * served.candidate.endpoint.nanosPerCharacter, "prompt");
  const kept: Uint8Array[] | null = generation.facts.observe ? [first] : null;
  const output = () => (kept ? capturedText(`data:${contentType};base64,${Buffer.concat(kept).toString("base64")}`) : null);
  let ended = false;
  const cancelled = () => {
    if (ended) return;
    ended = true;
    void rest.cancel().catch(() => undefined);
    generation.settleQuietly(served, mediaEnd(cost, { cancelled: true, firstByteAt }));
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(first);
    },
    async pull(controller) {
      let read: Awaited<ReturnType<typeof rest.read>>;
      try {
        read = await rest.read();
      } catch (err) {
        if (clientSignal.aborted) return cancelled();
        ended = true;
        await generation
          .settle(served, mediaEnd(costOf(0, "prompt"), { firstByteAt, errorMessage: `the upstream's audio stream failed: ${String(err)}` }))
          .catch(() => undefined);
        return controller.error(err);
      }
      if (!read.done) {
        kept?.push(read.value);
        return controller.enqueue(read.value);
      }
      ended = true;
      try {
        await generation.settle(served, mediaEnd(cost, { firstByteAt, output: output() }));
        controller.close();
      } catch (err) {
        controller.error(err);
      }
    },
    cancel: cancelled,
  });
}
