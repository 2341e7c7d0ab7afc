import { Elysia } from "elysia";
import type { ChangeOrigin } from "../audit/origin";
import { digestsEqual, hashKey } from "../crypto/key-secret";
import { GatewayError } from "../errors";
import type { ApiKeyRecord, Store } from "../store/store";
import type { AuthKind } from "./auth-kind";
import { bearerToken } from "./bearer-token";
import type { Caller } from "./caller";
import { changeOriginOf } from "./change-origin";
import { nulInRequest } from "./nul-guard";
import { securityOf } from "./openapi/security";
import type { Principal } from "./principal";
import { requestContext } from "./request-context";
import type { SessionSource, Viewer } from "./viewer";

/**
 * Which console sessions a route accepts (a bearer key is not a session: the console never
 * reads one). `session`: anyone signed in; `session:manager`: organization owners and admins
 * (403 for members).
 */
export type SessionKind = "session" | "session:manager";

export type CallerKind = AuthKind | SessionKind;

export type { AuthKind };

/** Both ways a key may be sent: Anthropic clients send x-api-key instead of a bearer token. */
const HOW_TO_SEND = "send Authorization: Bearer <key> or x-api-key: <key>";

/** Methods that change nothing: a session needs no CSRF token for them. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export async function authenticate(store: Store, rawKey: string | undefined, now: number): Promise<Principal> {
  if (!rawKey) throw new GatewayError(401, `Missing API key: ${HOW_TO_SEND}`);
  const digest = hashKey(rawKey.trim());
  const current = await store.keys.get(digest);
  const key = current && digestsEqual(digest, current.hash) ? current : await rotatedKey(store, digest, now);
  if (!key) throw new GatewayError(401, "Invalid API key");
  if (key.disabled) throw new GatewayError(401, "API key is disabled");
  if (key.expiresAt !== null && key.expiresAt <= now) throw new GatewayError(401, "API key has expired");
  const workspace = await store.workspaces.find(key.workspaceId);
  if (!workspace) throw new GatewayError(401, "API key belongs to a workspace that no longer exists");
  const user = key.creatorUserId ? ((await store.users.get(key.creatorUserId)) ?? null) : null;
  if (user?.disabled) throw new GatewayError(401, "API key belongs to a deactivated user");
  return { key, workspace, user, isManagement: key.isManagement };
}

/**
 * The key a secret it had before a rotation still authenticates as, until the rotation's grace
 * ends (`POST /keys/{hash}/rotate`); undefined otherwise. Only a secret no key has now is looked up.
 */
async function rotatedKey(store: Store, digest: string, now: number): Promise<ApiKeyRecord | undefined> {
  const previous = await store.keys.previous(digest);
  if (!previous || previous.validUntil <= now) return undefined;
  return store.keys.get(previous.keyHash);
}

/**
 * The signed-in viewer of a console request, or a throw: 401 without a session, 403 for a state
 * change without the session's CSRF token in `x-csrf-token`.
 */
export async function admitSession(store: Store, sessions: SessionSource, request: Request): Promise<Viewer> {
  const session = await sessions.signedIn(request);
  if (!session) throw new GatewayError(401, "Not signed in: sign in at /login");
  if (!SAFE_METHODS.has(request.method) && !sessions.csrfValid(session, request.headers.get("x-csrf-token")))
    throw new GatewayError(403, "Missing or invalid CSRF token: send the session's token in the x-csrf-token header", { field: "x-csrf-token" });
  // the session source reads the user on every request, so a changed role applies at once
  const memberships = await store.members.ofUser(session.userId);
  return {
    session,
    userId: session.userId,
    role: session.role,
    manages: session.role === "owner" || session.role === "admin",
    memberOf: memberships.map((m) => m.workspaceId),
  };
}

/** What each kind lets an admitted caller do, in one place: anything else is 403. */
export function authorize(caller: Caller, kind: CallerKind): void {
  if (caller.via === "session") {
    if (kind === "session:manager" && !caller.viewer.manages) throw new GatewayError(403, "Only organization owners and admins may do this");
    return;
  }
  if (kind === "management" && !caller.principal.isManagement) throw new GatewayError(403, "This operation requires a management key");
  if (kind === "inference" && caller.principal.isManagement)
    throw new GatewayError(403, "Management keys cannot be used for inference; create an API key with POST /api/v1/keys");
}

/** What a route's handler receives: the caller its kind admits, and who and where a change it makes comes from (the audit log's origin). */
type Admitted<K extends CallerKind> = K extends SessionKind ? { viewer: Viewer; origin: ChangeOrigin } : { principal: Principal; origin: ChangeOrigin };

const isSessionKind = (kind: CallerKind): kind is SessionKind => kind === "session" || kind === "session:manager";

/**
 * The `auth` macro over one way of admitting callers. Elysia types what a macro resolves by the
 * macro alone, whatever value a route gives it; so each plugin admits either keys or sessions,
 * and a route's handler gets `principal` or `viewer` for certain.
 */
function callerPlugin<K extends CallerKind>(name: string, admit: (request: Request) => Promise<Caller>) {
  return new Elysia({ name }).macro({
    auth: (kind: K) => ({
      // the console's routes stay out of /api/v1/openapi.json
      detail: isSessionKind(kind) ? { hide: true } : securityOf(kind),
      async transform({ request }) {
        const caller = await admit(request);
        authorize(caller, kind);
        requestContext(request).caller = caller;
      },
      resolve({ request, params, query, body, server }): Admitted<K> {
        const { caller } = requestContext(request);
        if (!caller) throw new Error("auth: resolve ran without the transform that admits the caller");
        const origin = changeOriginOf(caller, request, server);
        if (caller.via === "session") return { viewer: caller.viewer, origin } as Admitted<K>;
        // the bodies of inference routes (the only ones for inference keys alone) go upstream, not into the store
        const field = nulInRequest({ params, query, body }, kind !== "inference");
        if (field !== null) throw new GatewayError(400, `Invalid field '${field}': text cannot contain the NUL character (\\u0000)`, { field });
        return { principal: caller.principal, origin } as Admitted<K>;
      },
    }),
  });
}

type KeyAuthPlugin = ReturnType<typeof callerPlugin<AuthKind>>;
type SessionAuthPlugin = ReturnType<typeof callerPlugin<SessionKind>>;

/**
 * The one auth plugin: routes declare `auth: <kind>` and receive the caller it admits, kept in
 * the request context too. Given the clock, it admits keys (bearer or x-api-key) for the API's
 * kinds and hands `principal`; given the session source, it admits signed-in sessions for the
 * console's kinds and hands `viewer`. Admission and authorization run in `transform`, which
 * Elysia runs before it validates anything (parse, transform, validation, resolve): only a
 * caller who may call a route learns what is wrong with its input.
 */
export function authPlugin(store: Store, clock: () => number): KeyAuthPlugin;
export function authPlugin(store: Store, sessions: SessionSource): SessionAuthPlugin;
export function authPlugin(store: Store, source: (() => number) | SessionSource): KeyAuthPlugin | SessionAuthPlugin {
  if (typeof source === "function") {
    const clock = source;
    return callerPlugin<AuthKind>("auth", async (request) => ({
      via: "key",
      principal: await authenticate(store, bearerToken(request) ?? request.headers.get("x-api-key") ?? undefined, clock()),
    }));
  }
  return callerPlugin<SessionKind>("auth:session", async (request) => ({ via: "session", viewer: await admitSession(store, source, request) }));
}
