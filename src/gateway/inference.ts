import type { AppContext } from "../app-context";
import { GatewayError } from "../errors";
import type { IRResult, IRStreamPart } from "../ir/types";
import { InferenceRun, ZERO_COST, type InferenceInput, type Served } from "./inference-run";
import { NOT_RECORDED } from "./record";
import { KEEPALIVE, pumpStream, type StreamEnd } from "./stream-session";
import { UsageTracker } from "./usage-tracker";
import type { Candidate } from "./candidates";

/** How long a streaming request's 200 is held back waiting for the upstream's first event. */
const HOLD_HEADERS_MS = 2000;
const KEEPALIVE_EVERY_MS = 5000;

export type { InferenceInput };

export async function runInference(deps: AppContext, input: InferenceInput): Promise<Response> {
  const run = new InferenceRun(deps, input);
  let candidates: Candidate[];
  try {
    candidates = await run.plan();
  } catch (err) {
    if (err instanceof GatewayError) throw new GatewayError(err.status, err.message, err.metadata, { ...err.headers, ...run.idHeader });
    throw err;
  }
  // generations may take minutes: Bun's idle timeout must not cut this request
  input.server?.timeout(input.request, 0);
  // an unexpected fault still ends as a recorded failure, so the key's reservation is released
  const attempt = run.attemptAll(candidates).catch((err: unknown) => {
    deps.logger.error("inference attempt failed unexpectedly", { id: run.id, error: String(err), stack: (err as Error)?.stack });
    return new GatewayError(500, "Internal error while calling the provider", undefined, run.idHeader);
  });
  if (!run.ir.stream) return respondJson(run, await attempt);
  return respondStream(run, attempt);
}

async function respondJson(run: InferenceRun, outcome: Served | GatewayError): Promise<Response> {
  if (outcome instanceof GatewayError) {
    await run.recordFailure(outcome).catch(() => {});
    throw outcome;
  }
  if (outcome.success.kind !== "result") throw new Error("expected a whole result");
  const result: IRResult = outcome.success.result;
  run.completeUsage(result.usage, resultText(result));
  const cost = run.priceUsage(result.usage);
  const ctx = run.encodeContext();
  ctx.serviceMetadata = run.metadata();
  const body = run.inbound.encodeResult(result, ctx);
  try {
    await run.record({ usage: result.usage, cost, streamed: false, cancelled: false, finishReason: result.finishReason, nativeFinishReason: result.nativeFinishReason, upstreamId: result.id, firstTokenAt: null });
  } catch {
    throw new GatewayError(503, NOT_RECORDED, undefined, run.idHeader);
  }
  return new Response(JSON.stringify(body), { headers: { "content-type": "application/json", ...run.idHeader } });
}

function resultText(result: IRResult): string {
  return result.content.map((p) => (p.type === "text" || p.type === "reasoning" ? p.text : p.type === "tool_call" ? p.arguments : p.refusal)).join("");
}

const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive", "x-accel-buffering": "no" };

async function respondStream(run: InferenceRun, attempt: Promise<Served | GatewayError>): Promise<Response> {
  const held = await Promise.race([attempt, Bun.sleep(HOLD_HEADERS_MS).then(() => "waiting" as const)]);
  if (held instanceof GatewayError) {
    await run.recordFailure(held).catch(() => {});
    throw held;
  }
  let cancelled = false;
  let upstreamAbort: AbortController | null = held === "waiting" ? null : held.abort;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const write = (chunk: Uint8Array) => {
        if (cancelled) return false;
        try {
          controller.enqueue(chunk);
          return true;
        } catch {
          return false;
        }
      };
      let keepalive: Timer | null = null;
      let served: Served | GatewayError;
      if (held === "waiting") {
        write(KEEPALIVE);
        keepalive = setInterval(() => write(KEEPALIVE), KEEPALIVE_EVERY_MS);
        served = await attempt;
        clearInterval(keepalive);
      } else served = held;
      if (served instanceof GatewayError) {
        await run.recordFailure(served).catch(() => {});
        write(errorEvent(run, served));
      } else {
        upstreamAbort = served.abort;
        if (cancelled) served.abort.abort();
        const end = await streamServed(run, served, write, () => cancelled);
        if (end.cancelled) served.abort.abort();
      }
      if (!cancelled) controller.close();
    },
    cancel() {
      // the client went away: stop paying for tokens nobody reads
      cancelled = true;
      upstreamAbort?.abort();
    },
  });
  run.input.request.signal.addEventListener("abort", () => {
    cancelled = true;
    upstreamAbort?.abort();
  });
  return new Response(body, { headers: { ...SSE_HEADERS, ...run.idHeader } });
}

function errorEvent(run: InferenceRun, error: { status: number; message: string }): Uint8Array {
  return new TextEncoder().encode(run.inbound.createStreamEncoder(run.encodeContext()).encode({ type: "error", status: error.status, message: error.message }));
}

async function streamServed(run: InferenceRun, served: Served, write: (c: Uint8Array) => boolean, isCancelled: () => boolean): Promise<StreamEnd> {
  if (served.success.kind !== "stream") throw new Error("expected a stream");
  const ctx = run.encodeContext();
  const usage = new UsageTracker();
  let cost = ZERO_COST;
  const end = await pumpStream({
    upstream: served.success,
    encoder: run.inbound.createStreamEncoder(ctx),
    write,
    usage,
    isCancelled,
    clock: run.deps.clock,
    onFinish(part: Extract<IRStreamPart, { type: "finish" }>) {
      usage.merge(part.usage);
      run.completeUsage(usage.usage, usage.outputText);
      part.usage = { ...usage.usage };
      cost = run.priceUsage(part.usage);
      ctx.serviceMetadata = run.metadata();
    },
  });
  if (!end.finished || end.finishReason === "error") {
    // cut short: charge what was produced, counted when the upstream did not say
    run.completeUsage(usage.usage, usage.outputText);
    cost = run.priceUsage(usage.usage);
  }
  const recorded = run.record({
    usage: usage.usage,
    cost,
    streamed: true,
    cancelled: end.cancelled,
    finishReason: end.cancelled ? "cancelled" : end.finishReason,
    nativeFinishReason: end.nativeFinishReason,
    upstreamId: end.upstreamId,
    firstTokenAt: end.firstTokenAt,
    errorMessage: end.errorMessage,
  });
  if (end.cancelled) {
    // nobody is waiting for the end; the writer logs and retries a failed record itself
    recorded.catch(() => {});
    return end;
  }
  try {
    await recorded;
    if (end.tail !== "") write(new TextEncoder().encode(end.tail));
  } catch {
    write(errorEvent(run, { status: 503, message: NOT_RECORDED }));
  }
  return end;
}
