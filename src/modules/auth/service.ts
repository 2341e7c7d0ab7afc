import type { ChangeOrigin } from "../../audit/origin";
import { randomToken, tokenDigest } from "../../crypto/secret-token";
import { badRequest, GatewayError } from "../../errors";
import type { Principal } from "../../http/principal";
import type { AuthCodeRecord, Store, UserRecord, WorkspaceRecord } from "../../store/store";
import { isoTime } from "../../time";
import { insertKey, keyExpiry, keyLimitNanos, recordKeyChange, resolveWorkspace } from "../keys/service";
import { appIdOf, callbackOrigin, callbackProblem } from "./callback-url";
import type { CreateAuthCodeInput, ExchangeAuthCodeInput } from "./model";
import { type ChallengeMethod, challengeProblem, verifierMatches } from "./pkce";

/** RFC 6749 §4.1.2: a code expires shortly after it is issued; 10 minutes is the recommended most. */
export const CODE_LIFETIME_MS = 10 * 60_000;

export type AuthCodeDeps = { store: Store; clock: () => number };

/** What a code is asked for: the body of POST /auth/keys/code, or the consent form. */
export type AuthCodeRequest = Omit<CreateAuthCodeInput, "user_id">;

/**
 * Whom a key acting through POST /auth/keys/code creates a code for: a management key for the
 * user named in `user_id` (default: its own user), any other key for its own user only.
 */
export async function codeUserOf(deps: AuthCodeDeps, principal: Principal, userId: string | undefined): Promise<UserRecord> {
  const own = principal.key.creatorUserId;
  if (userId !== undefined && !principal.isManagement && userId !== own)
    throw new GatewayError(403, "Only a management key may create a code for another user ('user_id')", { field: "user_id" });
  const id = userId ?? own;
  if (!id)
    throw new GatewayError(403, "This key belongs to no user: use a key of the user who authorizes, or a management key with 'user_id'", { field: "user_id" });
  const user = await deps.store.users.get(id);
  if (!user) throw badRequest(`Invalid field 'user_id': no user '${id}'`, { field: "user_id" });
  return user;
}

/** A workspace's keys belong to its members: everyone is in the default workspace, the owner in all. */
const keysAllowedWithoutMembership = (user: Pick<UserRecord, "role">, workspace: WorkspaceRecord): boolean => workspace.isDefault || user.role === "owner";

async function checkMember(store: Store, user: UserRecord, workspace: WorkspaceRecord): Promise<void> {
  if (keysAllowedWithoutMembership(user, workspace) || (await store.members.get(workspace.id, user.id))) return;
  throw new GatewayError(403, `User '${user.id}' is not a member of workspace '${workspace.slug}'`, { field: "workspace_id" });
}

/** The most workspaces the consent page offers (as many as the console lists). */
const OFFERED_WORKSPACES = 1000;

/** The workspaces a user may take an app's key into, the default one first, then by name. */
export async function keyWorkspacesOf(store: Store, user: Pick<UserRecord, "id" | "role">): Promise<WorkspaceRecord[]> {
  const [all, memberships] = await Promise.all([store.workspaces.list(0, OFFERED_WORKSPACES), store.members.ofUser(user.id)]);
  const memberOf = new Set(memberships.map((m) => m.workspaceId));
  return all
    .filter((workspace) => keysAllowedWithoutMembership(user, workspace) || memberOf.has(workspace.id))
    .sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.name.localeCompare(b.name));
}

/** The challenge as stored: a challenge without a method is plain (RFC 7636 §4.3). */
function storedChallenge(request: AuthCodeRequest): { codeChallenge: string | null; codeChallengeMethod: ChallengeMethod | null } {
  if (request.code_challenge === undefined) {
    if (request.code_challenge_method !== undefined)
      throw badRequest("Invalid field 'code_challenge' is required with code_challenge_method", { field: "code_challenge" });
    return { codeChallenge: null, codeChallengeMethod: null };
  }
  const method = request.code_challenge_method ?? "plain";
  const problem = challengeProblem(request.code_challenge, method);
  if (problem) throw badRequest(`Invalid field 'code_challenge': ${problem}`, { field: "code_challenge" });
  return { codeChallenge: request.code_challenge, codeChallengeMethod: method };
}

/**
 * Issues an authorization code for the user: the key it will become is decided now (workspace,
 * limit, reset, expiry, label, checked by the rules of POST /keys), and the code is stored only
 * as its hash. Returns the code, which exists only in this return value.
 */
export async function createAuthCode(deps: AuthCodeDeps, user: UserRecord, request: AuthCodeRequest): Promise<{ code: string; record: AuthCodeRecord }> {
  const problem = callbackProblem(request.callback_url);
  if (problem) throw badRequest(`Invalid field 'callback_url': ${problem}`, { field: "callback_url" });
  const challenge = storedChallenge(request);
  const now = deps.clock();
  const keyExpiresAt = keyExpiry(request.expires_at, now);
  const workspace = await resolveWorkspace(deps.store, request.workspace_id, "workspace_id");
  await checkMember(deps.store, user, workspace);
  const code = randomToken();
  const record: AuthCodeRecord = {
    id: tokenDigest(code),
    userId: user.id,
    workspaceId: workspace.id,
    callbackUrl: request.callback_url,
    appId: appIdOf(request.callback_url),
    ...challenge,
    limitNanos: keyLimitNanos(request.limit),
    limitReset: request.usage_limit_type ?? null,
    keyExpiresAt,
    keyLabel: request.key_label ?? null,
    createdAt: now,
    expiresAt: now + CODE_LIFETIME_MS,
  };
  // codes nobody redeemed go when new ones come: no timer, and the table stays small
  await deps.store.authCodes.deleteExpired(now);
  await deps.store.authCodes.create(record);
  return { code, record };
}

export function renderAuthCode(code: string, record: AuthCodeRecord) {
  return { data: { id: code, app_id: record.appId, created_at: isoTime(record.createdAt) } };
}

const refused = (message: string) => new GatewayError(403, message);

/** Why a taken code does not become a key; null when it does. */
function redemptionProblem(code: AuthCodeRecord, body: ExchangeAuthCodeInput, now: number): string | null {
  if (code.expiresAt <= now) return "Authorization code has expired";
  const method = body.code_challenge_method ?? undefined;
  if (code.codeChallenge === null || code.codeChallengeMethod === null) {
    // no challenge was stored: a verifier cannot turn this into a PKCE exchange after the fact
    if (body.code_verifier !== undefined || method !== undefined) return "This authorization code was issued without a code_challenge: send no code_verifier";
    return null;
  }
  if (body.code_verifier === undefined) return "This authorization code requires its code_verifier";
  if (method !== undefined && method !== code.codeChallengeMethod) return `code_challenge_method '${method}' differs from the method the code was issued with`;
  if (!verifierMatches(code.codeChallenge, code.codeChallengeMethod, body.code_verifier)) return "code_verifier does not match the code_challenge";
  return null;
}

/**
 * POST /auth/keys: exchanges a code for a new inference key of the code's user and workspace.
 * Taking the code removes it, in the same transaction that creates the key: of concurrent
 * redemptions exactly one finds it, and a failed one (wrong verifier, wrong method, expired)
 * still burns it, so an intercepted code cannot be tried twice.
 */
export async function exchangeAuthCode(
  deps: AuthCodeDeps,
  source: Pick<ChangeOrigin, "ip" | "userAgent">,
  body: ExchangeAuthCodeInput,
): Promise<{ key: string; user_id: string | null }> {
  const now = deps.clock();
  const outcome = await deps.store.transaction(async (tx) => {
    const code = await tx.authCodes.take(tokenDigest(body.code));
    if (!code) return { problem: "Invalid authorization code: unknown, already used, or expired" };
    const problem = redemptionProblem(code, body, now);
    if (problem) return { problem };
    const user = await tx.users.get(code.userId);
    if (!user) return { problem: "The user who authorized this code is no longer in the organization" };
    if (!(await tx.workspaces.find(code.workspaceId))) return { problem: "The workspace of this authorization code no longer exists" };
    const { raw, record } = await insertKey(tx, now, {
      name: code.keyLabel ?? callbackOrigin(code.callbackUrl),
      isManagement: false,
      workspaceId: code.workspaceId,
      creatorUserId: code.userId,
      limitNanos: code.limitNanos,
      limitReset: code.limitReset,
      expiresAt: code.keyExpiresAt,
    });
    // the person who authorized the app made this key; the app only carried the code
    await recordKeyChange(tx, now, { actor: { type: "user", id: user.id, label: user.email }, ...source }, "key.create", null, record);
    return { key: raw, userId: code.userId };
  });
  if ("problem" in outcome) throw refused(outcome.problem ?? "Invalid authorization code");
  return { key: outcome.key, user_id: outcome.userId };
}
