import type { GatewayError } from "../errors";
import type { InboundCodec } from "../ir/codec";
import type { Caller } from "./caller";

/** Renders an error in the body a route's clients expect (error-format.ts). */
export type RenderErrorBody = InboundCodec["errorBody"];

/**
 * What the gateway learns of one request while its hooks run, in one place. Each field has one
 * writer, named beside it; every other module only reads.
 */
export type RequestContext = {
  /** `performance.now()` when the app's first hook saw the request: the access log's duration counts from here */
  readonly startedAt: number;
  /**
   * the id an inference route gives its generation before anything else (modules/inference): the
   * error handler adds it to errors as x-generation-id. Kept here, not in Elysia's `set.headers`:
   * a header there makes Elysia copy every answer into a new Response, its body turned into a stream.
   */
  generationId?: string;
  /** who is calling: a key's principal or a session's viewer, once admitted, before validation (auth.ts) */
  caller?: Caller;
  /** the error body the route's clients expect; absent: the route's path decides (error-format.ts) */
  errorBody?: RenderErrorBody;
  /** why the body could not be read, reported in place of the validation error it causes (json-body.ts) */
  bodyError?: GatewayError;
  /** the error the answer carries, as the error hook rendered it: the access log names a refusal's cause by it (app.ts) */
  failure?: { message: string; metadata?: Record<string, unknown> };
  /** the generation's record reports this request (access log, metrics), so the HTTP layer stays quiet (request-shape.ts) */
  claimed: boolean;
};

/**
 * Kept beside the Request rather than in Elysia's context: Elysia's per-request values
 * (`derive`, `resolve`) exist from the transform phase on, and onRequest's context has none
 * (https://elysiajs.com/life-cycle/request.html, "Pre Context"). This context is needed
 * earlier: the start time and a 413 are onRequest's, an unreadable body is the parse hook's.
 * The Request is the one object every hook, from onRequest to onAfterResponse and onError, is
 * handed, and it dies with the request.
 */
const contexts = new WeakMap<Request, RequestContext>();

/**
 * The request's context. The app's first hook (onRequest, app.ts) makes it; a hook that finds
 * none (a route module mounted without the app, as unit tests do) makes it then.
 */
export function requestContext(request: Request): RequestContext {
  const existing = contexts.get(request);
  if (existing) return existing;
  const made: RequestContext = { startedAt: performance.now(), claimed: false };
  contexts.set(request, made);
  return made;
}
