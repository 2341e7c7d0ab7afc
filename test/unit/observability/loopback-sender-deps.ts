/**
 * SenderDeps whose HTTP goes through the gateway's real outbound adapter (URL check, pinned
 * address, bounded read) to a loopback recorder: each request's origin is replaced by the
 * recorder's, so a type whose URL is fixed (New Relic) or https is still received here, and the
 * URL the sender meant is kept in `urls`.
 */
import type { SenderDeps } from "../../../src/observability/contract";
import { senderHttpOf } from "../../../src/observability/sender-http";
import { outboundOptionsOf } from "../../../src/outbound/policy";
import type { HttpRecorder } from "../../support/http-recorder";
import { T0 } from "./fixtures";

export type LoopbackDeps = SenderDeps & { urls: string[] };

export function loopbackDeps(recorder: HttpRecorder, now = T0): LoopbackDeps {
  const http = senderHttpOf(outboundOptionsOf({ config: { security: { allowPrivateUrls: true } } }));
  const urls: string[] = [];
  return {
    urls,
    clock: () => now,
    allowPrivateUrls: true,
    http: (request) => {
      urls.push(request.url);
      const meant = new URL(request.url);
      return http({ ...request, url: `${recorder.url}${meant.pathname}${meant.search}` });
    },
  };
}
