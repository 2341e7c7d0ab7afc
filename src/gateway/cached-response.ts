import type { AppContext } from "../app-context";
import { NO_CHARGE, type Settlement } from "../ir/settlement";
import type { IRResult } from "../ir/types";
import { resultOutput } from "../observability/capture/result-content";
import { encodeContext, SSE_HEADERS } from "./answer-context";
import type { ClientStream } from "./client-stream";
import { encoderWriter } from "./encoder-writer";
import { type EndFacts, NOT_RECORDED } from "./generation";
import { serviceMetadata } from "./metadata";
import type { InferencePlan } from "./plan";
import type { CacheHit } from "./response-cache/consult";
import { replayParts } from "./response-cache/replay";
import { rememberResponseItems, terminalResponseOf } from "./response-memory";

/**
 * A completion answered by the response cache: the kept answer written in the client's format
 * and mode by the same encoders a translated live answer goes through (a JSON body, or the
 * format's whole event sequence), recorded with cost 0 before its last bytes (on SQLite: queued
 * for a group commit a few milliseconds later, which every read of generations waits for; a hit
 * owes nothing, so a crash can lose no money with it). A Responses answer is remembered for later
 * `previous_response_id`s like any other.
 */
export async function respondCached(deps: AppContext, plan: InferencePlan, hit: CacheHit, client: ClientStream | null): Promise<Response> {
  const { answer } = hit;
  const result: IRResult = { ...answer.result, model: answer.model };
  const ctx = encodeContext(plan, answer.model, answer.provider.name);
  const settlement = settlementOf(plan, hit);
  const end: Omit<EndFacts, "cost"> = {
    usage: result.usage,
    usageEstimated: answer.usageEstimated,
    cancelled: false,
    finishReason: result.finishReason,
    nativeFinishReason: result.nativeFinishReason ?? null,
    upstreamId: result.id || null,
    firstTokenAt: null,
    errorMessage: null,
    output: plan.facts.observe ? resultOutput(result) : null,
  };
  if (!client) {
    const body = plan.inbound.encodeResult(result, ctx, settlement);
    const remembered = plan.memory ? rememberResponseItems(deps, plan.memory, body, deps.clock()) : undefined;
    await plan.generation.settleCached(end);
    await remembered;
    return new Response(JSON.stringify(body), { headers: { "content-type": "application/json", ...plan.generation.answerHeaders } });
  }
  const writer = encoderWriter(plan.inbound.createStreamEncoder({ ...ctx, promptTokens: result.usage.inputTokens }));
  const { parts, finish } = replayParts(answer);
  client.write(writer.write(null, parts));
  const last = writer.finish(finish, settlement);
  const remembered = plan.memory ? rememberResponseItems(deps, plan.memory, terminalResponseOf(last), deps.clock()) : undefined;
  void finishStream(plan, end, remembered, client, last, writer.error({ type: "error", status: 503, message: NOT_RECORDED }));
  return new Response(client.body, { headers: { ...SSE_HEADERS, ...plan.generation.answerHeaders } });
}

/** The last event waits for the record, as a live stream's does; one that could not be made durable ends the stream with an error. */
async function finishStream(
  plan: InferencePlan,
  end: Omit<EndFacts, "cost">,
  remembered: Promise<void> | undefined,
  client: ClientStream,
  last: string,
  notRecorded: string,
): Promise<void> {
  try {
    await plan.generation.settleCached(end);
    await remembered;
    client.write(last);
  } catch {
    client.write(notRecorded);
  }
  client.close();
}

/** Nothing charged; the service metadata names the kept answer's model and provider, and no attempt. */
function settlementOf(plan: InferencePlan, hit: CacheHit): Settlement {
  if (!plan.wantsMetadata) return NO_CHARGE;
  const { answer } = hit;
  const metadata = serviceMetadata({
    requested: plan.facts.requestedModel,
    model: answer.model,
    provider: answer.provider.slug,
    generationId: plan.facts.id,
    isByok: false,
    attempts: [],
  });
  return { ...NO_CHARGE, serviceMetadata: metadata };
}
