import type { AppContext } from "../app-context";
import type { CatalogEndpoint, ProviderEntry } from "../catalog/types";
import { secretBoxOf } from "../crypto/secret-box";
import type { Principal } from "../http/principal";
import type { ByokRecord } from "../store/store";
import { type Credential, ownCredentials } from "./candidates";

/** What credentials are chosen by: a chat endpoint, or any other kind's (a media endpoint) with the same names. */
export type CredentialTarget = Pick<CatalogEndpoint, "id" | "modelId" | "upstreamModel"> & { provider: Pick<ProviderEntry, "slug" | "apiKey"> };

/** The credentials a request may use for an endpoint, in the order to try them. */
export type CredentialResolver = (endpoint: CredentialTarget) => Credential[];

/** An empty or absent allow-list restricts nothing. */
const allows = (list: string[] | null, ...values: Array<string | null | undefined>) =>
  list === null || list.length === 0 || values.some((v) => v !== null && v !== undefined && list.includes(v));

/** Whether this request may use the credential for this endpoint. */
export function credentialApplies(cred: ByokRecord, endpoint: CredentialTarget, principal: Principal): boolean {
  return (
    cred.provider === endpoint.provider.slug &&
    allows(cred.allowedModels, endpoint.modelId, endpoint.upstreamModel, endpoint.id) &&
    allows(cred.allowedUserIds, principal.user?.id) &&
    allows(cred.allowedApiKeyHashes, principal.key.hash)
  );
}

/**
 * Order for one endpoint: the workspace's BYOK credentials (by sort_order), then the
 * gateway's own key, then BYOK credentials marked is_fallback. A credential marked
 * is_byok_only or is_required keeps the gateway's own key out for that provider.
 */
export function orderCredentials(endpoint: CredentialTarget, applicable: ByokRecord[], open: (c: ByokRecord) => string | null): Credential[] {
  const toCredential = (c: ByokRecord): Credential[] => {
    const apiKey = open(c);
    return apiKey === null ? [] : [{ apiKey, isByok: true }];
  };
  const own = applicable.some((c) => c.isByokOnly || c.isRequired) ? [] : ownCredentials(endpoint);
  return [...applicable.filter((c) => !c.isFallback).flatMap(toCredential), ...own, ...applicable.filter((c) => c.isFallback).flatMap(toCredential)];
}

export async function credentialResolver(ctx: AppContext, principal: Principal): Promise<CredentialResolver> {
  // one read per request; planning asks per endpoint, often twice
  const usable = await ctx.store.byok.usable(principal.workspace.id);
  if (usable.length === 0) return ownCredentials;
  const box = secretBoxOf(ctx);
  const open = (c: ByokRecord): string | null => {
    try {
      return box.openSync(c.encryptedKey);
    } catch {
      // a credential sealed under another master key cannot serve; say which, never what
      ctx.logger.error("BYOK credential cannot be decrypted with the current master key", { byok_id: c.id, provider: c.provider });
      return null;
    }
  };
  const memo = new Map<string, Credential[]>();
  return (endpoint) => {
    let found = memo.get(endpoint.id);
    if (!found) {
      found = orderCredentials(
        endpoint,
        usable.filter((c) => credentialApplies(c, endpoint, principal)),
        open,
      );
      memo.set(endpoint.id, found);
    }
    return found;
  };
}
