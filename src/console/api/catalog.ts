import type { AppContext } from "../../app-context";
import type { SessionSource } from "../../http/viewer";
import { modelEndpoints } from "../../modules/models/service";
import { consoleApiModule } from "./route-module";

/**
 * The catalog as it serves now: every model with each endpoint's prices, live latency,
 * throughput and uptime, and circuit status (0 serving, -1 probing, -2 open), as
 * /api/v1/models/{id}/endpoints renders them. Read-only, for everyone signed in.
 */
export function consoleCatalogRoutes(ctx: AppContext, sessions: SessionSource) {
  return consoleApiModule("console-catalog", ctx.store, sessions).get(
    "/models",
    () => {
      const models = ctx.catalog.models().filter((m) => m.endpoints.length > 0);
      return { data: models.map((m) => ({ id: m.id, name: m.name, context_length: m.contextLength, endpoints: modelEndpoints(ctx, m) })) };
    },
    { auth: "session" },
  );
}
