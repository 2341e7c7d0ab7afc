import ipaddr from "ipaddr.js";

/**
 * Which addresses a user-supplied URL may reach. Only ipaddr.js's `unicast` range passes: that
 * refuses loopback, private, link-local (cloud metadata at 169.254.169.254), CGNAT, multicast,
 * broadcast, unspecified, reserved, unique-local, NAT64 and 6to4/Teredo embeddings. IPv4-mapped
 * IPv6 is judged as the IPv4 address it carries (`process`); IPv4-compatible IPv6 (::/96,
 * deprecated) is refused on its own, since ipaddr.js files it under unicast.
 */
export function addressRefusal(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return "is not an IP address";
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range !== "unicast") return `is in a non-public range (${range})`;
  return parsed.kind() === "ipv6" && isIpv4Compatible(parsed as ipaddr.IPv6) ? "is an IPv4-compatible IPv6 address" : undefined;
}

function isIpv4Compatible(address: ipaddr.IPv6): boolean {
  return address.parts.slice(0, 6).every((part) => part === 0);
}

/** Names that reach the cloud metadata service or this machine whatever the resolver says. */
const REFUSED_NAMES = new Set(["localhost", "metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal"]);

export function hostnameRefusal(hostname: string): string | undefined {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (REFUSED_NAMES.has(name) || name.endsWith(".localhost")) return "names a local or cloud-metadata host";
  return undefined;
}
