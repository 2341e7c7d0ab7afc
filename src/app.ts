import { Elysia } from "elysia";
import type { AppContext } from "./app-context";
import { authWebRoutes } from "./auth-web";
import { csrfTokenValid } from "./auth-web/csrf";
import { signedInUser } from "./auth-web/session";
import { consoleRoutes } from "./console";
import { CONSOLE_HEADERS, isConsoleUrl, withConsoleHeaders } from "./console/security-headers";
import { corsHeaders, preflightResponse } from "./http/cors";
import { docsRoutes } from "./http/docs";
import { failureOf, jsonError, renderError } from "./http/error-handler";
import { jsonBodyReader } from "./http/json-body";
import { openapiDocumentRoutes } from "./http/openapi/document";
import { requestContext } from "./http/request-context";
import { activityRoutes } from "./modules/activity";
import { analyticsRoutes } from "./modules/analytics";
import { auditRoutes } from "./modules/audit";
import { authCodeRoutes } from "./modules/auth";
import { byokRoutes } from "./modules/byok";
import { cacheRoutes } from "./modules/cache";
import { countTokensRoutes } from "./modules/count-tokens";
import { creditRoutes } from "./modules/credits";
import { embeddingRoutes } from "./modules/embeddings";
import { generationRoutes } from "./modules/generations";
import { guardrailRoutes } from "./modules/guardrails";
import { healthRoutes } from "./modules/health";
import { imageRoutes } from "./modules/images";
import { inferenceRoutes } from "./modules/inference";
import { jobRoutes } from "./modules/jobs";
import { keyRoutes } from "./modules/keys";
import { metricsRoutes } from "./modules/metrics";
import { modelRoutes } from "./modules/models";
import { observabilityRoutes } from "./modules/observability";
import { organizationRoutes } from "./modules/organization";
import { presetRoutes } from "./modules/presets";
import { rerankRoutes } from "./modules/rerank";
import { scimManagementRoutes } from "./modules/scim";
import { speechRoutes } from "./modules/speech";
import { TRANSCRIPTIONS_PATH, transcriptionRoutes } from "./modules/transcriptions";
import { videoRoutes } from "./modules/videos";
import { workspaceRoutes } from "./modules/workspaces";
import { reportHttpRequest } from "./telemetry/http-request";

/** draining: true once the process is stopping, when /ready answers 503 (src/drain.ts) */
export function createApp(ctx: AppContext, opts: { draining?: () => boolean } = {}) {
  const maxBodyBytes = Math.floor(ctx.config.server.maxBodyMb * 1024 * 1024);
  return new Elysia({ name: "gateway", normalize: false })
    .onRequest(({ request, set }) => {
      // the first hook: the request's context starts here, with its start time
      requestContext(request);
      if (isConsoleUrl(request.url)) Object.assign(set.headers, CONSOLE_HEADERS);
      const cors = corsHeaders(ctx.config.server.cors, request);
      if (cors) {
        const preflight = preflightResponse(ctx.config.server.cors, request);
        if (preflight) return preflight;
        Object.assign(set.headers, cors);
      }
      const length = Number(request.headers.get("content-length") ?? 0);
      if (length > maxBodyBytes) {
        const message = `Request body too large: the limit is ${ctx.config.server.maxBodyMb} MB`;
        requestContext(request).failure = { message };
        const response = jsonError(request, 413, message);
        // Elysia runs no onAfterResponse for an answer onRequest gives: it is reported here
        reportHttpRequest({ request, route: "", set: { headers: {} }, responseValue: response }, ctx.telemetry, ctx.refusals, ctx.clock());
        return response;
      }
    })
    .onParse({ as: "global" }, jsonBodyReader(maxBodyBytes, ctx.config.server.maxBodyMb, new Set([TRANSCRIPTIONS_PATH])))
    .onAfterResponse({ as: "global" }, (context) => {
      // requests that reached a generation are reported with it, when its record commits
      if (!requestContext(context.request).claimed) reportHttpRequest(context, ctx.telemetry, ctx.refusals, ctx.clock());
    })
    .onError({ as: "global" }, ({ request, code, error, set }) => {
      const response = renderError(request, code, error, ctx.logger);
      requestContext(request).failure = failureOf(error);
      // the access log and the metrics read the status from `set`: Elysia left its own there (422 for a body that fails validation)
      set.status = response.status;
      if (isConsoleUrl(request.url)) withConsoleHeaders(response);
      // inference routes name their generation even when they fail before it starts
      const { generationId } = requestContext(request);
      if (generationId !== undefined && !response.headers.has("x-generation-id")) response.headers.set("x-generation-id", generationId);
      return response;
    })
    .use(
      openapiDocumentRoutes({
        title: "Model Gateway API",
        version: process.env.npm_package_version ?? "0.1.0",
        description: "OpenRouter-compatible model gateway",
      }),
    )
    .use(docsRoutes())
    .use(healthRoutes(ctx, opts.draining))
    .use(metricsRoutes(ctx))
    .use(keyRoutes(ctx))
    .use(inferenceRoutes(ctx))
    .use(countTokensRoutes(ctx))
    .use(generationRoutes(ctx))
    .use(modelRoutes(ctx))
    .use(embeddingRoutes(ctx))
    .use(imageRoutes(ctx))
    .use(speechRoutes(ctx))
    .use(transcriptionRoutes(ctx))
    .use(rerankRoutes(ctx))
    .use(organizationRoutes(ctx))
    .use(workspaceRoutes(ctx))
    .use(guardrailRoutes(ctx))
    .use(byokRoutes(ctx))
    .use(presetRoutes(ctx))
    .use(creditRoutes(ctx))
    .use(activityRoutes(ctx))
    .use(analyticsRoutes(ctx))
    .use(jobRoutes(ctx))
    .use(cacheRoutes(ctx))
    .use(observabilityRoutes(ctx))
    .use(videoRoutes(ctx))
    .use(authCodeRoutes(ctx))
    .use(auditRoutes(ctx))
    .use(scimManagementRoutes(ctx))
    .use(authWebRoutes(ctx))
    .use(consoleRoutes(ctx, { signedIn: (request) => signedInUser(ctx, request), csrfValid: csrfTokenValid }));
}

export type App = ReturnType<typeof createApp>;
