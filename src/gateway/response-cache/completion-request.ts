import type { IRRequest } from "../../ir/types";
import type { InboundFormat } from "../codecs";

/** Body fields that change neither the answer nor where it may come from: left out of the key, so a streamed request meets a JSON one's answer. */
const UNKEYED_FIELDS = new Set(["stream", "stream_options", "user", "metadata", "session_id", "trace"]);

/**
 * A completion request as the response cache keys it: the inbound route and the request as the
 * upstream would see it (decoded, its preset merged, stored Responses items resolved, the fields
 * only a same-format upstream gets), without streaming, the end user, metadata, the session and
 * the trace. `sentParameters` is sorted: it follows the body's key order.
 */
export function completionCacheRequest(format: InboundFormat, ir: IRRequest, unknownFields: Readonly<Record<string, unknown>>): unknown {
  const { stream: _stream, user: _user, sessionId: _session, metadata: _metadata, trace: _trace, sentParameters, ...request } = ir;
  const passedOn = Object.fromEntries(Object.entries(unknownFields).filter(([name]) => !UNKEYED_FIELDS.has(name)));
  return { route: format, request: { ...request, sentParameters: sentParameters.filter((p) => !UNKEYED_FIELDS.has(p)).sort() }, unknownFields: passedOn };
}
