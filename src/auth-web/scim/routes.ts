import type { AppContext } from "../../app-context";
import type { ChangeOrigin } from "../../audit/origin";
import { bearerToken } from "../../http/bearer-token";
import { requestSource } from "../../http/change-origin";
import { routeModule } from "../../http/module";
import { requestContext } from "../../http/request-context";
import { scimTokenOf } from "../../modules/scim/tokens";
import { listResponse, resourceTypes, schemas, serviceProviderConfig } from "./discovery";
import { ScimProblem, scimErrorResponse, scimJson } from "./errors";
import { createScimGroup, deleteScimGroup, getScimGroup, listScimGroups, patchScimGroup, replaceScimGroup } from "./groups";
import { createScimUser, deleteScimUser, getScimUser, type ListQuery, listScimUsers, patchScimUser, replaceScimUser } from "./users";

type Server = { requestIP(request: Request): { address: string } | null } | null;
type Call = { origin: ChangeOrigin; base: string; body: unknown };

/**
 * Every SCIM endpoint: the bearer must be a SCIM token (a management key, another key or none is
 * 401), and whatever goes wrong is answered in SCIM's error shape (RFC 7644, section 3.12), never
 * in the gateway's own.
 */
function scimCall(ctx: AppContext, handle: (call: Call) => Promise<Response>) {
  return async ({ request, server, body }: { request: Request; server: Server; body: unknown }): Promise<Response> => {
    try {
      const token = await scimTokenOf(ctx.store, bearerToken(request));
      if (!token) throw new ScimProblem(401, "A SCIM token is required: Authorization: Bearer <token from POST /api/v1/scim/tokens>");
      const unreadable = requestContext(request).bodyError;
      if (unreadable && request.method !== "GET" && request.method !== "DELETE") throw new ScimProblem(400, unreadable.message, "invalidSyntax");
      const origin: ChangeOrigin = { actor: { type: "scim", id: token.id, label: token.name }, ...requestSource(request, server) };
      return await handle({ origin, base: ctx.config.server.publicUrl ?? new URL(request.url).origin, body });
    } catch (err) {
      if (err instanceof ScimProblem) return scimErrorResponse(err);
      ctx.logger.error("SCIM request failed", { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      return scimErrorResponse(new ScimProblem(500, "Internal error"));
    }
  };
}

const queryOf = (request: Request): ListQuery & { excludedAttributes?: string } => {
  const q = new URL(request.url).searchParams;
  return {
    filter: q.get("filter") ?? undefined,
    startIndex: q.get("startIndex") ?? undefined,
    count: q.get("count") ?? undefined,
    excludedAttributes: q.get("excludedAttributes") ?? undefined,
  };
};

/** The SCIM 2.0 server (RFC 7644) at /scim/v2: discovery, Users, Groups. */
export function scimRoutes(ctx: AppContext) {
  const detail = { detail: { hide: true } };
  return routeModule("scim", "/scim/v2")
    .get("/ServiceProviderConfig", (c) => scimCall(ctx, async ({ base }) => scimJson(200, serviceProviderConfig(base)))(c), detail)
    .get("/Schemas", (c) => scimCall(ctx, async ({ base }) => scimJson(200, listResponse(schemas(base), 2, 1)))(c), detail)
    .get("/ResourceTypes", (c) => scimCall(ctx, async ({ base }) => scimJson(200, listResponse(resourceTypes(base), 2, 1)))(c), detail)
    .get("/Users", (c) => scimCall(ctx, async ({ base }) => scimJson(200, await listScimUsers(ctx, queryOf(c.request), base)))(c), detail)
    .post(
      "/Users",
      (c) =>
        scimCall(ctx, async ({ origin, base, body }) => {
          const user = await createScimUser(ctx, origin, body, base);
          return scimJson(201, user, { location: user.meta.location });
        })(c),
      detail,
    )
    .get("/Users/:id", (c) => scimCall(ctx, async ({ base }) => scimJson(200, await getScimUser(ctx, c.params.id, base)))(c), detail)
    .put(
      "/Users/:id",
      (c) => scimCall(ctx, async ({ origin, base, body }) => scimJson(200, await replaceScimUser(ctx, origin, c.params.id, body, base)))(c),
      detail,
    )
    .patch(
      "/Users/:id",
      (c) => scimCall(ctx, async ({ origin, base, body }) => scimJson(200, await patchScimUser(ctx, origin, c.params.id, body, base)))(c),
      detail,
    )
    .delete(
      "/Users/:id",
      (c) =>
        scimCall(ctx, async ({ origin }) => {
          await deleteScimUser(ctx, origin, c.params.id);
          return new Response(null, { status: 204 });
        })(c),
      detail,
    )
    .get("/Groups", (c) => scimCall(ctx, async ({ base }) => scimJson(200, await listScimGroups(ctx, queryOf(c.request), base)))(c), detail)
    .post(
      "/Groups",
      (c) =>
        scimCall(ctx, async ({ origin, base, body }) => {
          const group = await createScimGroup(ctx, origin, body, base);
          return scimJson(201, group, { location: group.meta.location });
        })(c),
      detail,
    )
    .get("/Groups/:id", (c) => scimCall(ctx, async ({ base }) => scimJson(200, await getScimGroup(ctx, c.params.id, base)))(c), detail)
    .put(
      "/Groups/:id",
      (c) => scimCall(ctx, async ({ origin, base, body }) => scimJson(200, await replaceScimGroup(ctx, origin, c.params.id, body, base)))(c),
      detail,
    )
    .patch(
      "/Groups/:id",
      (c) => scimCall(ctx, async ({ origin, base, body }) => scimJson(200, await patchScimGroup(ctx, origin, c.params.id, body, base)))(c),
      detail,
    )
    .delete(
      "/Groups/:id",
      (c) =>
        scimCall(ctx, async ({ origin }) => {
          await deleteScimGroup(ctx, origin, c.params.id);
          return new Response(null, { status: 204 });
        })(c),
      detail,
    );
}
