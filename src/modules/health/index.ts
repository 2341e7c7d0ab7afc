import { t } from "elysia";
import { routeModule } from "../../http/module";
import type { AppContext } from "../../app-context";
import { GatewayError } from "../../errors";

export function healthRoutes(ctx: AppContext) {
  return routeModule("health")
    .get("/health", () => ({ status: "ok" as const }), {
      response: t.Object({ status: t.Literal("ok") }),
      detail: { tags: ["Health"], summary: "The process is up" },
    })
    .get("/ready", () => {
      if (!ctx.store.ready()) throw new GatewayError(503, "Database unreachable or migrations pending");
      return { status: "ready" as const };
    }, {
      response: t.Object({ status: t.Literal("ready") }),
      detail: { tags: ["Health"], summary: "The database is reachable and migrated" },
    });
}
