import type { AppContext } from "../../app-context";
import type { SessionSource } from "../../http/viewer";
import { listable, modelEndpoints } from "../../modules/models/service";
import { consoleApiModule } from "./route-module";

/**
 * The catalog as it serves now: every model with each endpoint's prices, live latency,
 * throughput and uptime, and circuit status (0 serving, -1 probing, -2 open), as
 * /api/v1/models/{id}/endpoints renders them. `available` is GET /api/v1/models's own rule (a
 * gateway.yaml model, or one whose provider has a key or an enabled BYOK credential); each
 * endpoint says whether its provider has a key (`has_key`: the gateway's own, or BYOK). Read-only,
 * for everyone signed in.
 */
export function consoleCatalogRoutes(ctx: AppContext, sessions: SessionSource) {
  return consoleApiModule("console-catalog", ctx.store, sessions).get(
    "/models",
    async () => {
      const listed = await listable(ctx);
      const byok = new Set((await ctx.store.byok.list({}, 0, 100_000)).filter((c) => !c.disabled).map((c) => c.provider));
      const models = ctx.catalog.models().filter((m) => m.endpoints.length > 0);
      return {
        data: models.map((m) => {
          const keyed = new Set(m.endpoints.filter((e) => e.provider.apiKey !== undefined || byok.has(e.provider.slug)).map((e) => e.id));
          return {
            id: m.id,
            name: m.name,
            context_length: m.contextLength,
            available: listed(m),
            endpoints: modelEndpoints(ctx, m).map((e, i) => ({ ...e, has_key: keyed.has(m.endpoints[i]!.id) })),
          };
        }),
      };
    },
    { auth: "session" },
  );
}
