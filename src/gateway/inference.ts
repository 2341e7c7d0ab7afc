import type { AppContext } from "../app-context";
import type { IRResult, IRUsage } from "../ir/types";
import { resultOutput, StreamContent } from "../observability/capture/result-content";
import { upstreamApis } from "../providers/apis";
import { encodeContext, SSE_HEADERS } from "./answer-context";
import { respondCached } from "./cached-response";
import { ClientStream } from "./client-stream";
import { completionOperation, type UpstreamAnswer, type UpstreamStream } from "./completion-attempt";
import { encoderWriter } from "./encoder-writer";
import { type Charge, countImages, NOT_RECORDED, type NotServed, priceTokens, type Served } from "./generation";
import { outboundImageFetcher } from "./inline-images";
import { serviceMetadata } from "./metadata";
import { passthroughFor, unknownFieldsFor } from "./passthrough";
import { type InferenceInput, type InferencePlan, planInference } from "./plan";
import { cachedAnswer, StreamedAnswer } from "./response-cache/cached-answer";
import { rememberResponseItems, terminalResponseOf } from "./response-memory";
import { pipeStream } from "./stream-pipeline";
import { completeUsage } from "./usage-estimate";

/** How long a streaming request's 200 is held back waiting for the upstream's first event. */
const HOLD_HEADERS_MS = 2000;
const KEEPALIVE_EVERY_MS = 5000;
/** A keep-alive comment while the upstream has not answered yet (clients ignore comments). */
const KEEPALIVE = ": PROCESSING\n\n";

export type { InferenceInput };

/**
 * One inference request (Chat, Responses or Messages), top to bottom:
 * plan (decode, route, admit) → attempt with fallback → answer (JSON, or the stream pipeline)
 * → settle and record → last bytes to the client.
 */
export async function runInference(deps: AppContext, input: InferenceInput): Promise<Response> {
  const plan = await planInference(deps, input);
  const client = plan.ir.stream ? new ClientStream(input.http.signal) : null;
  const { cached } = plan.generation;
  if (cached) return respondCached(deps, plan, cached, client);
  const operation = completionOperation(
    plan.ir,
    (c) => upstreamApis[c.endpoint.provider.api],
    (c) => unknownFieldsFor(plan, c),
    deps.config.routing.firstByteTimeoutMs,
    outboundImageFetcher(deps),
  );
  const attempt = plan.generation.attempt(operation, { signal: client?.signal, sessionKey: plan.sessionKey });
  return client ? respondStream(deps, plan, attempt, client) : respondJson(deps, plan, await attempt);
}

type Attempted = Served<UpstreamAnswer> | NotServed;

async function respondJson(deps: AppContext, plan: InferencePlan, attempted: Attempted): Promise<Response> {
  if (!attempted.ok) throw await plan.generation.fail(attempted);
  const { value, candidate } = attempted;
  if (value.kind !== "result") throw new Error("expected a whole result");
  const { result } = value;
  const { usage, estimated } = await completeUsage(result.usage, plan.ir, resultText(result));
  const money = chargeServed(plan, attempted, usage);
  const ctx = encodeContext(plan, candidate.model.id, candidate.endpoint.provider.name);
  const passthrough = passthroughFor(plan, candidate);
  const settled = { ...result, usage };
  const body = passthrough ? passthrough.rewriteResult(value.raw, settled, ctx, money.settlement) : plan.inbound.encodeResult(settled, ctx, money.settlement);
  // kept beside the generation record, not after it: the last bytes wait for both at once
  const remembered = plan.memory ? rememberResponseItems(deps, plan.memory, body, deps.clock()) : undefined;
  await plan.generation.settle(attempted, {
    usage,
    usageEstimated: estimated,
    cost: money.cost,
    cancelled: false,
    finishReason: result.finishReason,
    nativeFinishReason: result.nativeFinishReason ?? null,
    upstreamId: result.id,
    firstTokenAt: null,
    errorMessage: null,
    output: plan.facts.observe ? resultOutput(result) : null,
    keep: plan.facts.cache?.key ? cachedAnswer(candidate, settled, estimated) : null,
  });
  await remembered;
  return new Response(JSON.stringify(body), { headers: { "content-type": "application/json", ...plan.generation.answerHeaders } });
}

async function respondStream(deps: AppContext, plan: InferencePlan, attempt: Promise<Attempted>, client: ClientStream): Promise<Response> {
  let holding: Timer | undefined;
  const held = await Promise.race([attempt, new Promise<"waiting">((resolve) => (holding = setTimeout(resolve, HOLD_HEADERS_MS, "waiting")))]);
  clearTimeout(holding);
  // a failure while the headers are still held is an ordinary HTTP error
  if (held !== "waiting" && !held.ok) throw await plan.generation.fail(held);
  streamAnswer(deps, plan, held === "waiting" ? attempt : held, client).catch((err: unknown) => {
    deps.logger.error("streaming an answer failed unexpectedly", { id: plan.facts.id, error: String(err), stack: (err as Error)?.stack });
    client.close();
    return plan.generation.abandon("Internal error while streaming the answer");
  });
  return new Response(client.body, { headers: { ...SSE_HEADERS, ...plan.generation.answerHeaders } });
}

/** Writes the answer into the client stream: keep-alives while waiting, then the piped upstream, then the recorded end. */
async function streamAnswer(deps: AppContext, plan: InferencePlan, attempt: Attempted | Promise<Attempted>, client: ClientStream): Promise<void> {
  let attempted: Attempted;
  if (attempt instanceof Promise) {
    client.write(KEEPALIVE);
    const keepalive = setInterval(() => client.write(KEEPALIVE), KEEPALIVE_EVERY_MS);
    attempted = await attempt;
    clearInterval(keepalive);
  } else attempted = attempt;
  if (!attempted.ok) {
    const error = await plan.generation.fail(attempted);
    client.write(
      plan.inbound.createStreamEncoder(encodeContext(plan, plan.facts.requestedModel)).encode({ type: "error", status: error.status, message: error.message }),
    );
  } else if (attempted.value.kind === "stream") {
    await streamServed(deps, plan, attempted, attempted.value.stream, client);
  }
  client.close();
}

async function streamServed(
  deps: AppContext,
  plan: InferencePlan,
  served: Served<UpstreamAnswer>,
  upstream: UpstreamStream,
  client: ClientStream,
): Promise<void> {
  const promptTokens = (await plan.promptTokens) ?? undefined;
  const ctx = { ...encodeContext(plan, served.candidate.model.id, served.candidate.endpoint.provider.name), promptTokens };
  const writer = passthroughFor(plan, served.candidate)?.createStreamWriter(ctx) ?? encoderWriter(plan.inbound.createStreamEncoder(ctx));
  // the answer's text is collected only for a workspace that forwards or keeps it
  const answer = plan.facts.cache?.key ? new StreamedAnswer() : null;
  const piped = await pipeStream(upstream, writer, client, deps.clock, plan.facts.observe ? new StreamContent() : null, answer);
  const { end, meter } = piped;
  // the meter has merged every usage the upstream reported, the finish part's included
  const { usage, estimated } = await completeUsage(meter.usage, plan.ir, meter.outputText);
  const money = chargeServed(plan, served, usage);
  const last = end === null ? "" : end.type === "finish" ? writer.finish({ ...end, usage }, money.settlement) : writer.error(end);
  const remembered =
    plan.memory && end?.type === "finish" ? rememberResponseItems(deps, plan.memory, terminalResponseOf(piped.pending + last), deps.clock()) : undefined;
  const ended = {
    usage,
    usageEstimated: estimated,
    cost: money.cost,
    cancelled: end === null,
    finishReason: end === null ? "cancelled" : end.type === "finish" ? end.finishReason : "error",
    nativeFinishReason: end?.type === "finish" ? (end.nativeFinishReason ?? null) : null,
    upstreamId: meter.upstreamId,
    firstTokenAt: meter.firstTokenAt,
    errorMessage: end?.type === "error" ? end.message : null,
    output: piped.content,
    keep:
      answer && end?.type === "finish"
        ? cachedAnswer(served.candidate, { ...end, id: meter.upstreamId ?? "", content: answer.content(), usage }, estimated)
        : null,
  };
  // nobody is waiting for the end; the writer logs and retries a failed record itself
  if (end === null) return plan.generation.settleQuietly(served, ended);
  try {
    await plan.generation.settle(served, ended);
    await remembered;
    client.write(piped.pending + last);
  } catch {
    client.write(writer.error({ type: "error", status: 503, message: NOT_RECORDED }));
  }
}

function chargeServed(plan: InferencePlan, served: Served<UpstreamAnswer>, usage: IRUsage): Charge {
  const { candidate } = served;
  const metadata = plan.wantsMetadata
    ? serviceMetadata({
        requested: plan.facts.requestedModel,
        model: candidate.model.id,
        provider: candidate.endpoint.provider.slug,
        generationId: plan.facts.id,
        isByok: candidate.isByok,
        attempts: served.attempts,
      })
    : undefined;
  return priceTokens(candidate, usage, countImages(plan.ir), metadata);
}

function resultText(result: IRResult): string {
  return result.content.map((p) => (p.type === "text" || p.type === "reasoning" ? p.text : p.type === "tool_call" ? p.arguments : p.refusal)).join("");
}
