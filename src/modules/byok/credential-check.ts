import type { Catalog } from "../../catalog/types";
import { badRequest } from "../../errors";
import { checkOutboundUrl } from "../../outbound/check-url";
import { type OutboundContext, urlPolicyOf } from "../../outbound/policy";
import { upstreamApis } from "../../providers/apis";

/**
 * A BYOK `key` read the way its provider's upstream API reads it, before it is stored: a Vertex
 * service-account key file must be one (a 400 naming `key` otherwise, saying what is wrong and
 * never what the key is), and the URL it names for its token exchange passes the checks of any
 * URL a user gives, since the gateway will call it.
 */
export async function checkByokKey(deps: OutboundContext & { catalog: Catalog }, providerSlug: string, key: string): Promise<void> {
  const provider = deps.catalog.getProvider(providerSlug);
  const check = provider ? upstreamApis[provider.api].checkCredential?.(key) : undefined;
  if (!check) return;
  if (!check.ok) throw badRequest(`Invalid field 'key': the ${provider!.name} key ${check.problem}`, { field: "key" });
  for (const url of check.urls) {
    const checked = await checkOutboundUrl(url, urlPolicyOf(deps));
    if (!checked.ok) throw badRequest(`Invalid field 'key': the URL it names (${url}) ${checked.reason}`, { field: "key", reason: checked.reason });
  }
}
