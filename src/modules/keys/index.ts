import { t } from "elysia";
import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import {
  CreateKeyBody,
  CreateKeyResponse,
  CurrentKeyResponse,
  DeletedResponse,
  HashParams,
  KeyResponse,
  ListKeysQuery,
  ListKeysResponse,
  RotateKeyBody,
  UpdateKeyBody,
} from "./model";
import { createKey, currentKey, deleteKey, getKey, listKeys, rotateKey, updateKey } from "./service";

export function keyRoutes(ctx: AppContext) {
  return routeModule("keys", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .get("/key", async ({ principal }) => ({ data: await currentKey(ctx, principal) }), {
      auth: "any",
      response: CurrentKeyResponse,
      detail: { tags: ["API keys"], summary: "Metadata of the calling key" },
    })
    .get("/keys", async ({ query }) => ({ data: await listKeys(ctx, query) }), {
      auth: "management",
      query: ListKeysQuery,
      response: ListKeysResponse,
      detail: { tags: ["API keys"], summary: "List API keys of a workspace" },
    })
    .post(
      "/keys",
      ({ principal, origin, body, set }) => {
        set.status = 201;
        return createKey(ctx, origin, principal.key.creatorUserId, body);
      },
      {
        auth: "management",
        body: CreateKeyBody,
        response: { 201: CreateKeyResponse },
        detail: { tags: ["API keys"], summary: "Create an API key (the raw key is returned once)" },
      },
    )
    .get("/keys/:hash", async ({ params }) => ({ data: await getKey(ctx, params.hash) }), {
      auth: "management",
      params: HashParams,
      response: KeyResponse,
      detail: { tags: ["API keys"], summary: "Get an API key" },
    })
    .patch("/keys/:hash", async ({ origin, params, body }) => ({ data: await updateKey(ctx, origin, params.hash, body) }), {
      auth: "management",
      params: HashParams,
      body: UpdateKeyBody,
      response: KeyResponse,
      detail: { tags: ["API keys"], summary: "Update an API key" },
    })
    .post("/keys/:hash/rotate", ({ origin, params, body }) => rotateKey(ctx, origin, params.hash, body ?? {}), {
      auth: "management",
      params: HashParams,
      body: t.Optional(RotateKeyBody),
      response: CreateKeyResponse,
      detail: {
        tags: ["API keys"],
        summary:
          "Rotate an API key: a new secret (returned once) whose hash becomes the key's; the old secret works for grace_seconds (default 86400, 0: not at all)",
        description:
          "The key keeps its name, limits, usage and spend history, workspace and rate limits; data.hash is the new hash, the key's identifier from then on. Requests in flight while it rotates are recorded under the old hash.",
      },
    })
    .delete("/keys/:hash", ({ origin, params }) => deleteKey(ctx, origin, params.hash), {
      auth: "management",
      params: HashParams,
      response: DeletedResponse,
      detail: { tags: ["API keys"], summary: "Delete an API key" },
    });
}
