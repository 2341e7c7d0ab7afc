import { Elysia } from "elysia";
import { openapi } from "@elysiajs/openapi";
import type { AppContext } from "./app-context";
import { jsonError, renderError } from "./http/error-handler";
import { docsRoutes } from "./http/docs";
import { healthRoutes } from "./modules/health";
import { keyRoutes } from "./modules/keys";

export function createApp(ctx: AppContext) {
  const maxBodyBytes = Math.floor(ctx.config.server.maxBodyMb * 1024 * 1024);
  return new Elysia({ name: "gateway" })
    .onRequest(({ request }) => {
      const length = Number(request.headers.get("content-length") ?? 0);
      if (length > maxBodyBytes) return jsonError(request, 413, `Request body too large: the limit is ${ctx.config.server.maxBodyMb} MB`);
    })
    .onError({ as: "global" }, ({ request, code, error }) => renderError(request, code, error, ctx.logger))
    .use(
      openapi({
        path: "/docs/openapi",
        specPath: "/api/v1/openapi.json",
        provider: null,
        documentation: {
          info: { title: "Model Gateway API", version: process.env.npm_package_version ?? "0.1.0", description: "OpenRouter-compatible model gateway" },
          components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
          security: [{ bearer: [] }],
        },
      }),
    )
    .use(docsRoutes())
    .use(healthRoutes(ctx))
    .use(keyRoutes(ctx));
}

export type App = ReturnType<typeof createApp>;
