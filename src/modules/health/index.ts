import { t } from "elysia";
import type { AppContext } from "../../app-context";
import { GatewayError } from "../../errors";
import { routeModule } from "../../http/module";

/** What /ready checks: the database always, Redis when the deployment has one. */
async function unavailable(ctx: AppContext): Promise<string[]> {
  const [database, redis] = await Promise.all([ctx.store.ready().catch(() => false), ctx.shared.ready().catch(() => false)]);
  const down: string[] = [];
  if (!database) down.push(`database (${ctx.store.dialect}) unreachable or migrations pending`);
  if (!redis) down.push("redis unreachable");
  return down;
}

/** What /ready names while the process drains (SIGTERM): balancers take the instance out, it still serves. */
export const DRAINING = "draining: this instance is shutting down";

/** draining: true from SIGTERM on (src/drain.ts); /ready then answers 503 without asking the database */
export function healthRoutes(ctx: AppContext, draining: () => boolean = () => false) {
  return (
    routeModule("health")
      // someone who opens the gateway's address in a browser lands on the API reference
      .get("/", () => new Response(null, { status: 302, headers: { location: "/docs" } }), { detail: { hide: true } })
      .get("/health", () => ({ status: "ok" as const }), {
        response: t.Object({ status: t.Literal("ok") }),
        detail: { tags: ["Health"], summary: "The process is up" },
      })
      .get(
        "/ready",
        async () => {
          const down = draining() ? [DRAINING] : await unavailable(ctx);
          if (down.length > 0) throw new GatewayError(503, `Not ready: ${down.join("; ")}`, { unavailable: down });
          return { status: "ready" as const, database: ctx.store.dialect, shared_state: ctx.shared.kind };
        },
        {
          response: t.Object({
            status: t.Literal("ready"),
            database: t.Union([t.Literal("sqlite"), t.Literal("postgres")]),
            shared_state: t.Union([t.Literal("memory"), t.Literal("redis")]),
          }),
          detail: { tags: ["Health"], summary: "The database (and Redis, when configured) is reachable and migrated, and the process is not shutting down" },
        },
      )
  );
}
