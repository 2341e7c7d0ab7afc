import type { AppContext } from "../app-context";
import { routeModule } from "../http/module";
import type { SessionSource } from "../http/viewer";
import { consoleAnalyticsRoutes } from "./api/analytics";
import { consoleAuditRoutes } from "./api/audit";
import { consoleByokRoutes } from "./api/byok";
import { consoleCacheRoutes } from "./api/cache";
import { consoleCatalogRoutes } from "./api/catalog";
import { consoleGenerationRoutes } from "./api/generations";
import { consoleGroupRoutes } from "./api/groups";
import { consoleGuardrailRoutes } from "./api/guardrails";
import { consoleJobRoutes } from "./api/jobs";
import { consoleKeyRoutes } from "./api/keys";
import { consoleMeRoutes } from "./api/me";
import { consoleObservabilityRoutes } from "./api/observability";
import { consoleOverviewRoutes } from "./api/overview";
import { consolePeopleRoutes } from "./api/people";
import { consolePlaygroundRoutes } from "./api/playground";
import { consolePlaygroundMediaRoutes } from "./api/playground-media";
import { consolePresetRoutes } from "./api/presets";
import { consoleRefusalRoutes } from "./api/refusals";
import { consoleWorkspaceRoutes } from "./api/workspaces";
import { consoleScript, consoleStyle, serveAsset } from "./assets";
import { CONSOLE_HEADERS } from "./security-headers";
import { SHELL_PAGE } from "./shell-page";

const NOT_FOUND = () => new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", ...CONSOLE_HEADERS } });

/**
 * The web console at /console: one HTML page (signed-in users only; others are sent to the
 * sign-in page and brought back), its bundled script and stylesheet, and the JSON routes
 * under /console/api that the page calls. Every response carries CONSOLE_HEADERS (app.ts).
 */
export function consoleRoutes(ctx: AppContext, sessions: SessionSource) {
  const page = async ({ request }: { request: Request }) => {
    if (!(await sessions.signedIn(request))) {
      const url = new URL(request.url);
      return new Response(null, {
        status: 302,
        headers: { location: `/login?next=${encodeURIComponent(url.pathname + url.search)}`, "cache-control": "no-store", ...CONSOLE_HEADERS },
      });
    }
    return new Response(SHELL_PAGE, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", ...CONSOLE_HEADERS } });
  };
  return routeModule("console")
    .get("/console", page, { detail: { hide: true } })
    .get("/console/", page, { detail: { hide: true } })
    .get(
      "/console/assets/:file",
      ({ params, request }) => {
        const asset = [consoleScript, consoleStyle].find((a) => a.url === `/console/assets/${params.file}`);
        return asset ? serveAsset(asset, request) : NOT_FOUND();
      },
      { detail: { hide: true } },
    )
    .use(consoleMeRoutes(ctx, sessions))
    .use(consoleOverviewRoutes(ctx, sessions))
    .use(consoleKeyRoutes(ctx, sessions))
    .use(consoleGenerationRoutes(ctx, sessions))
    .use(consoleCatalogRoutes(ctx, sessions))
    .use(consoleWorkspaceRoutes(ctx, sessions))
    .use(consoleByokRoutes(ctx, sessions))
    .use(consolePresetRoutes(ctx, sessions))
    .use(consoleJobRoutes(ctx, sessions))
    .use(consoleObservabilityRoutes(ctx, sessions))
    .use(consoleAnalyticsRoutes(ctx, sessions))
    .use(consoleRefusalRoutes(ctx, sessions))
    .use(consolePeopleRoutes(ctx, sessions))
    .use(consoleAuditRoutes(ctx, sessions))
    .use(consoleGroupRoutes(ctx, sessions))
    .use(consolePlaygroundRoutes(ctx, sessions))
    .use(consolePlaygroundMediaRoutes(ctx, sessions))
    .use(consoleGuardrailRoutes(ctx, sessions))
    .use(consoleCacheRoutes(ctx, sessions));
}
