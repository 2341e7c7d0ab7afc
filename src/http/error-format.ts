import { errorBody } from "../errors";
import type { InboundCodec } from "../ir/codec";

/**
 * Which error body a request's clients expect. A route whose clients speak a wire format declares
 * it with `transform: rendersErrorsWith(codec)`; the error handler is handed only the Request, so
 * the choice is kept beside it. Other routes, and errors raised before routing (a body over the
 * size limit), get the gateway's standard body.
 */

type RenderBody = InboundCodec["errorBody"];

const bodies = new WeakMap<Request, RenderBody>();

/** A route `transform` hook: it runs before validation and authentication, so their errors are rendered this way too. */
export const rendersErrorsWith =
  (codec: Pick<InboundCodec, "errorBody">) =>
  ({ request }: { request: Request }): void => {
    bodies.set(request, codec.errorBody);
  };

export function errorBodyFor(request: Request, status: number, message: string, metadata?: Record<string, unknown>): Record<string, unknown> {
  const render = bodies.get(request);
  return render ? render(status, message, metadata) : errorBody(status, message, metadata);
}
