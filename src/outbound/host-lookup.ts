import { lookup } from "node:dns/promises";

export type ResolvedAddress = { address: string; family: 4 | 6 };

/**
 * Resolves a host name to every address it has (A and AAAA). Injected wherever a URL is checked,
 * so tests can answer names without touching the system resolver.
 */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemLookup: HostLookup = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};
