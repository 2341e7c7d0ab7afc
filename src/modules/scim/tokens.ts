import type { ChangeOrigin } from "../../audit/origin";
import { recordChange } from "../../audit/record";
import { randomToken, tokenDigest } from "../../crypto/secret-token";
import { notFound } from "../../errors";
import type { ScimTokenRecord, Store } from "../../store/store";
import { isoTime } from "../../time";
import type { ScimTokenOut } from "./model";

export type ScimTokenDeps = { store: Store; clock: () => number };

/** Recognisable in a secret scanner's rules and in a config file: `scim_` and 256 random bits. */
const TOKEN_PREFIX = "scim_";

export const renderScimToken = (t: ScimTokenRecord): ScimTokenOut => ({ id: t.id, name: t.name, created_at: isoTime(t.createdAt) });

/** A new SCIM token: stored as its SHA-256, returned raw once, with its scim_token.create event. */
export function createScimToken(deps: ScimTokenDeps, origin: ChangeOrigin, name: string): Promise<{ data: ScimTokenOut; token: string }> {
  const raw = `${TOKEN_PREFIX}${randomToken()}`;
  const now = deps.clock();
  return deps.store.transaction(async (tx) => {
    const record = await tx.scimTokens.create({ id: crypto.randomUUID(), name, tokenHash: tokenDigest(raw), createdAt: now });
    await recordChange(tx, now, origin, {
      action: "scim_token.create",
      target: { type: "scim_token", id: record.id },
      changes: { name: { from: null, to: name } },
    });
    return { data: renderScimToken(record), token: raw };
  });
}

export async function listScimTokens(deps: ScimTokenDeps): Promise<{ data: ScimTokenOut[] }> {
  return { data: (await deps.store.scimTokens.list()).map(renderScimToken) };
}

/** Revokes a token: the SCIM client using it gets 401 from its next request on. */
export function deleteScimToken(deps: ScimTokenDeps, origin: ChangeOrigin, id: string): Promise<{ deleted: true }> {
  const now = deps.clock();
  return deps.store.transaction(async (tx) => {
    const deleted = await tx.scimTokens.delete(id);
    if (!deleted) throw notFound(`SCIM token not found: ${id}`);
    await recordChange(tx, now, origin, {
      action: "scim_token.delete",
      target: { type: "scim_token", id },
      changes: { name: { from: deleted.name, to: null } },
    });
    return { deleted: true as const };
  });
}

/** The token a SCIM request carries, if it is one (revoked ones are gone). */
export async function scimTokenOf(store: Pick<Store, "scimTokens">, raw: string | undefined): Promise<ScimTokenRecord | undefined> {
  if (!raw?.startsWith(TOKEN_PREFIX) || raw.length > 200) return undefined;
  return store.scimTokens.byHash(tokenDigest(raw));
}
