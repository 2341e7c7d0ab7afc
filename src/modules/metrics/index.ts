import { timingSafeEqual } from "node:crypto";
import type { AppContext } from "../../app-context";
import { GatewayError } from "../../errors";
import { routeModule } from "../../http/module";

/** A client on this machine that no proxy forwarded (a proxy on this machine would make everyone look local). */
function isLocalClient(request: Request, address: string | undefined): boolean {
  if (request.headers.has("x-forwarded-for") || request.headers.has("forwarded") || request.headers.has("x-real-ip")) return false;
  return address === "::1" || address?.startsWith("127.") === true || address?.startsWith("::ffff:127.") === true;
}

function bearerMatches(request: Request, token: string | undefined): boolean {
  if (!token) return false;
  const sent = request.headers.get("authorization")?.replace(/^Bearer\s+/i, "") ?? "";
  const a = Buffer.from(sent);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Prometheus metrics: open to loopback clients, to others with `metrics.token` as a bearer token. */
export function metricsRoutes(ctx: AppContext) {
  return routeModule("metrics").get(
    "/metrics",
    async ({ request, server }) => {
      if (!isLocalClient(request, server?.requestIP(request)?.address) && !bearerMatches(request, ctx.config.metrics.token)) {
        throw new GatewayError(
          403,
          ctx.config.metrics.token
            ? "Metrics need the bearer token set as metrics.token (GATEWAY_METRICS_TOKEN)"
            : "Metrics are served to loopback clients only; set metrics.token (GATEWAY_METRICS_TOKEN) to read them from elsewhere",
        );
      }
      return new Response(await ctx.telemetry.metrics.render(), { headers: { "content-type": ctx.telemetry.metrics.contentType } });
    },
    {
      detail: {
        tags: ["Health"],
        summary: "Prometheus metrics (text format): open on loopback, elsewhere with the metrics token",
        responses: { 200: { description: "Prometheus text exposition format 0.0.4", content: { "text/plain": { schema: { type: "string" } } } } } as never,
      },
    },
  );
}
