import { Elysia } from "elysia";
import { GatewayError } from "../errors";
import type { Store } from "../store/store";
import { digestsEqual, hashKey } from "../modules/keys/key-secret";
import type { Principal } from "./principal";
import { nulInRequest } from "./nul-guard";
import { securityOf } from "./openapi/security";
import { bearerToken } from "./bearer-token";
import { requestContext } from "./request-context";

/**
 * Which keys a route accepts. `management`: management keys only (403 for inference keys);
 * `inference`: inference keys only (403 for management keys, as OpenRouter does);
 * `any`: both (presets, current-key metadata, generations).
 */
export type AuthKind = "management" | "inference" | "any";

/** Both ways a key may be sent: Anthropic clients send x-api-key instead of a bearer token. */
const HOW_TO_SEND = "send Authorization: Bearer <key> or x-api-key: <key>";

export async function authenticate(store: Store, rawKey: string | undefined, now: number): Promise<Principal> {
  if (!rawKey) throw new GatewayError(401, `Missing API key: ${HOW_TO_SEND}`);
  const digest = hashKey(rawKey.trim());
  const key = await store.keys.get(digest);
  if (!key || !digestsEqual(digest, key.hash)) throw new GatewayError(401, "Invalid API key");
  if (key.disabled) throw new GatewayError(401, "API key is disabled");
  if (key.expiresAt !== null && key.expiresAt <= now) throw new GatewayError(401, "API key has expired");
  const workspace = await store.workspaces.find(key.workspaceId);
  if (!workspace) throw new GatewayError(401, "API key belongs to a workspace that no longer exists");
  const user = key.creatorUserId ? ((await store.users.get(key.creatorUserId)) ?? null) : null;
  return { key, workspace, user, isManagement: key.isManagement };
}

export function authorize(principal: Principal, kind: AuthKind): void {
  if (kind === "management" && !principal.isManagement)
    throw new GatewayError(403, "This operation requires a management key");
  if (kind === "inference" && principal.isManagement)
    throw new GatewayError(403, "Management keys cannot be used for inference; create an API key with POST /api/v1/keys");
}

/**
 * The one auth plugin: routes declare `auth: "management" | "inference" | "any"` and receive
 * `principal`. Authentication and authorization run in `transform`, which Elysia runs before it
 * validates anything (parse, transform, validation, resolve): only a caller who may call a route
 * learns what is wrong with its input.
 */
export function authPlugin(store: Store, clock: () => number) {
  return new Elysia({ name: "auth" }).macro({
    auth: (kind: AuthKind) => ({
      detail: securityOf(kind),
      async transform({ request }) {
        const principal = await authenticate(store, bearerToken(request) ?? request.headers.get("x-api-key") ?? undefined, clock());
        authorize(principal, kind);
        requestContext(request).principal = principal;
      },
      resolve({ request, params, query, body }) {
        const { principal } = requestContext(request);
        if (!principal) throw new Error("auth: resolve ran without the transform that admits the caller");
        // the bodies of inference routes (the only ones for inference keys alone) go upstream, not into the store
        const field = nulInRequest({ params, query, body }, kind !== "inference");
        if (field !== null) throw new GatewayError(400, `Invalid field '${field}': text cannot contain the NUL character (\\u0000)`, { field });
        return { principal };
      },
    }),
  });
}
