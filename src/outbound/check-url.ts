import ipaddr from "ipaddr.js";
import { addressRefusal, hostnameRefusal } from "./address-policy";
import type { HostLookup, ResolvedAddress } from "./host-lookup";

export type UrlPolicy = {
  /** `security.allow_private_urls`: plain http and every address allowed (on-premise targets, tests) */
  allowPrivate: boolean;
  lookup: HostLookup;
  /** resolution gives up after this long (counts as unresolved) */
  lookupTimeoutMs: number;
};

/**
 * A URL that passed the check, with the one address a request to it must connect to, and the
 * name its TLS certificate must carry (none for an IP host).
 */
export type CheckedUrl = { ok: true; url: URL; hostname: string; address: ResolvedAddress; serverName?: string };

/**
 * `refused`: the URL itself is not allowed (scheme, credentials, address), now and later.
 * `unresolved`: the host has no address right now, which may change.
 */
export type UrlRefusal = { ok: false; kind: "refused" | "unresolved"; reason: string };

const refused = (reason: string): UrlRefusal => ({ ok: false, kind: "refused", reason });

/**
 * The check every user-supplied outbound URL passes, when it is saved and again before each
 * request. It parses with the WHATWG parser fetch uses, so `2130706433`, `0x7f.0.0.1`, `0177.0.0.1`
 * and `127.1` are already `127.0.0.1` here; a name is resolved once and every address it has must
 * be public. The caller connects to the returned address, never resolving again (DNS rebinding).
 */
export async function checkOutboundUrl(raw: string, policy: UrlPolicy): Promise<CheckedUrl | UrlRefusal> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refused("is not a valid absolute URL");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && policy.allowPrivate))
    return refused(policy.allowPrivate ? "must use http or https" : "must use https");
  if (url.username !== "" || url.password !== "") return refused("must not contain credentials");
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const literal = addressLiteral(hostname);
  if (literal) return checkedAddress(url, hostname, literal, policy);
  if (!policy.allowPrivate) {
    const byName = hostnameRefusal(hostname);
    if (byName) return refused(`host '${hostname}' ${byName}`);
  }
  const answers = await resolveWithin(policy, hostname);
  if (!answers || answers.length === 0) return { ok: false, kind: "unresolved", reason: `host '${hostname}' does not resolve` };
  if (!policy.allowPrivate) {
    for (const answer of answers) {
      const why = addressRefusal(answer.address);
      if (why) return refused(`host '${hostname}' resolves to ${answer.address}, which ${why}`);
    }
  }
  return { ok: true, url, hostname, address: answers[0]!, serverName: hostname };
}

/** An IP host, also with the trailing dot that makes the URL parser keep `169.254.169.254.` a name. */
function addressLiteral(hostname: string): ResolvedAddress | undefined {
  const bare = hostname.replace(/\.$/, "");
  if (!ipaddr.isValid(bare)) return undefined;
  const parsed = ipaddr.parse(bare);
  return { address: parsed.toString(), family: parsed.kind() === "ipv6" ? 6 : 4 };
}

function checkedAddress(url: URL, hostname: string, address: ResolvedAddress, policy: UrlPolicy): CheckedUrl | UrlRefusal {
  const why = policy.allowPrivate ? undefined : addressRefusal(address.address);
  return why ? refused(`address ${hostname} ${why}`) : { ok: true, url, hostname, address };
}

async function resolveWithin(policy: UrlPolicy, hostname: string): Promise<ResolvedAddress[] | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), policy.lookupTimeoutMs);
  });
  try {
    return await Promise.race([policy.lookup(hostname).catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
