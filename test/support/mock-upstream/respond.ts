// Turns one MockTurn into the HTTP response for one recorded request:
// failure modes first (reset, hang, delay, error status, invalid body), then
// the format's JSON or SSE rendering.

import { type Format, modelInPath } from "./formats.ts";
import { invalidBody, openAiErrorBody } from "./render-error.ts";
import { resetStream, sseStream } from "./sse-stream.ts";
import type { MockTurn, RecordedRequest, RenderContext, SseEvent } from "./types.ts";

export type Exchange = {
  rec: RecordedRequest;
  signal: AbortSignal;
  seq: number;
  /** Resolves when the mock stops, so hanging requests do not outlive it. */
  stopped: Promise<void>;
};

const gone = () => new Response(null, { status: 499 });

function markClosed(rec: RecordedRequest): void {
  if (rec.closedAt === undefined && rec.abortedAt === undefined) rec.closedAt = Date.now();
}

/** Resolves after ms, or early (with false) when the client aborts or the mock stops. */
function waitUnlessAborted(ms: number, ex: Exchange): Promise<boolean> {
  return new Promise((resolve) => {
    if (ex.signal.aborted) return resolve(false);
    const timer = Number.isFinite(ms) ? setTimeout(() => resolve(true), ms) : undefined;
    const stop = () => {
      clearTimeout(timer);
      resolve(false);
    };
    ex.signal.addEventListener("abort", stop, { once: true });
    void ex.stopped.then(stop);
  });
}

function headersFor(format: Format | undefined, turn: MockTurn, ex: Exchange, contentType: string, status = 200): Headers {
  const h = new Headers({ "content-type": contentType });
  h.set(format?.requestIdHeader ?? "x-request-id", `req_mock${ex.seq}`);
  if (contentType === "text/event-stream") h.set("cache-control", "no-cache");
  if (status >= 400) for (const [k, v] of Object.entries(format?.errorHeaders?.(status) ?? {})) h.set(k, v);
  for (const [k, v] of Object.entries(turn.headers ?? {})) h.set(k, v);
  return h;
}

function alterEvent(event: SseEvent, alter: (value: any) => any): SseEvent {
  let value: unknown;
  try {
    value = JSON.parse(event.data);
  } catch {
    return event;
  }
  return { ...event, data: JSON.stringify(alter(value)) };
}

export async function respond(format: Format | undefined, turn: MockTurn, ex: Exchange): Promise<Response> {
  const { rec } = ex;
  if (turn.resetBeforeResponse) {
    markClosed(rec);
    return new Response(resetStream());
  }
  if (turn.hang) {
    await waitUnlessAborted(Infinity, ex);
    return gone();
  }
  if (turn.delayMs && !(await waitUnlessAborted(turn.delayMs, ex))) return gone();

  if (!format) {
    markClosed(rec);
    const body = openAiErrorBody(404, `Unknown path ${rec.method} ${rec.path}`);
    return Response.json(body, { status: 404, headers: headersFor(format, turn, ex, "application/json") });
  }
  if (turn.status !== undefined && turn.status >= 400) {
    markClosed(rec);
    const body = turn.errorBody ?? format.errorBody(turn.status, `req_mock${ex.seq}`);
    const text = typeof body === "string" ? body : JSON.stringify(body);
    return new Response(text, { status: turn.status, headers: headersFor(format, turn, ex, "application/json", turn.status) });
  }

  const ctx: RenderContext = {
    body: rec.body,
    // a path that names the model (Bedrock, Gemini, Vertex AI) where the body does not
    model: format.modelOf?.(rec.path) ?? (typeof rec.body?.model === "string" ? rec.body.model : (modelInPath(rec.path) ?? "mock-model")),
    created: Math.floor(rec.receivedAt / 1000),
    seq: ex.seq,
  };
  const stream = (format.streams ? format.streams(rec.path) : rec.body?.stream === true) && format.events !== null;
  const status = turn.status ?? 200;

  if (turn.invalidBody) {
    markClosed(rec);
    const text = typeof turn.invalidBody === "string" ? turn.invalidBody : invalidBody(stream);
    const type = stream ? (format.frame?.contentType ?? "text/event-stream") : "application/json";
    return new Response(text, { status, headers: headersFor(format, turn, ex, type) });
  }
  if (!stream || !format.events) {
    markClosed(rec);
    const json = format.json(turn, ctx);
    return Response.json(turn.alter ? turn.alter(json) : json, { status, headers: headersFor(format, turn, ex, "application/json") });
  }

  let events = format.events(turn, ctx);
  if (turn.alter) events = events.map((e) => alterEvent(e, turn.alter!));
  if (turn.streamError) {
    const { afterEvents, message, type } = turn.streamError;
    events = [...events.slice(0, afterEvents), ...format.streamError(turn, ctx, afterEvents, message ?? "mock stream error", type)];
  }
  const body = sseStream(events, {
    encode: format.frame?.encode,
    chunkDelayMs: turn.chunkDelayMs,
    failAfterEvents: turn.failAfterEvents,
    onEnd: () => markClosed(rec),
    onCancel: () => {
      if (rec.closedAt === undefined && rec.abortedAt === undefined) rec.abortedAt = Date.now();
    },
  });
  return new Response(body, { status, headers: headersFor(format, turn, ex, format.frame?.contentType ?? "text/event-stream") });
}
