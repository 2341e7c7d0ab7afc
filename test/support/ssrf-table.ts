/**
 * The SSRF table: URLs every outbound check must refuse, each with the reason it must give, and
 * the fake resolver the tests answer names with (never the system resolver).
 */
import type { HostLookup } from "../../src/outbound/host-lookup";

export const PUBLIC_ADDRESS = "93.184.215.14";

const NAMES: Record<string, string[]> = {
  "public.test": [PUBLIC_ADDRESS],
  "loopback.test": ["127.0.0.1"],
  "mixed.test": [PUBLIC_ADDRESS, "192.168.0.10"],
};

/** answers NAMES; any other name does not resolve */
export const testLookup: HostLookup = async (hostname) => {
  const answers = NAMES[hostname];
  if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return answers.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

const range = (address: string, name: string) => `address ${address} is in a non-public range (${name})`;

/** [form, url, reason]; `port` is a loopback sentinel's, so a request that slipped through would be seen */
export function refusedUrls(port: number): Array<[string, string, string]> {
  return [
    ["decimal IPv4", `https://2130706433:${port}/hook`, range("127.0.0.1", "loopback")],
    ["octal IPv4", `https://0177.0.0.1:${port}/hook`, range("127.0.0.1", "loopback")],
    ["hex IPv4", `https://0x7f.0.0.1:${port}/hook`, range("127.0.0.1", "loopback")],
    ["hex IPv4 in one number", `https://0x7f000001:${port}/hook`, range("127.0.0.1", "loopback")],
    ["short IPv4", `https://127.1:${port}/hook`, range("127.0.0.1", "loopback")],
    ["IPv6 loopback", `https://[::1]:${port}/hook`, range("::1", "loopback")],
    ["IPv4-mapped loopback, dotted", `https://[::ffff:127.0.0.1]:${port}/hook`, range("::ffff:7f00:1", "loopback")],
    ["IPv4-mapped loopback, hex", `https://[::ffff:7f00:1]:${port}/hook`, range("::ffff:7f00:1", "loopback")],
    ["IPv4-compatible loopback", `https://[::127.0.0.1]:${port}/hook`, "address ::7f00:1 is an IPv4-compatible IPv6 address"],
    ["unspecified", `https://0.0.0.0:${port}/hook`, range("0.0.0.0", "unspecified")],
    ["unspecified as 0", `https://0:${port}/hook`, range("0.0.0.0", "unspecified")],
    ["IPv6 unspecified", `https://[::]:${port}/hook`, range("::", "unspecified")],
    ["cloud metadata", "https://169.254.169.254/latest/meta-data/", range("169.254.169.254", "linkLocal")],
    // the URL parser drops the dot here; a parser that kept it would send the name to the resolver
    ["cloud metadata, trailing dot", "https://169.254.169.254./latest/meta-data/", range("169.254.169.254", "linkLocal")],
    ["cloud metadata by name", "https://metadata.google.internal/computeMetadata/v1/", "host 'metadata.google.internal' names a local or cloud-metadata host"],
    ["cloud metadata, IPv4-mapped", "https://[::ffff:169.254.169.254]/", range("::ffff:a9fe:a9fe", "linkLocal")],
    ["cloud metadata, IPv6 (AWS)", "https://[fd00:ec2::254]/", range("fd00:ec2::254", "uniqueLocal")],
    ["10/8", "https://10.0.0.1/hook", range("10.0.0.1", "private")],
    ["172.16/12, low end", "https://172.16.0.1/hook", range("172.16.0.1", "private")],
    ["172.16/12, high end", "https://172.31.255.254/hook", range("172.31.255.254", "private")],
    ["192.168/16", "https://192.168.1.1/hook", range("192.168.1.1", "private")],
    ["100.64/10 CGNAT", "https://100.64.0.1/hook", range("100.64.0.1", "carrierGradeNat")],
    ["fc00::/7", "https://[fc00::1]/hook", range("fc00::1", "uniqueLocal")],
    ["fe80::/10", "https://[fe80::1]/hook", range("fe80::1", "linkLocal")],
    ["IPv4 multicast", "https://224.0.0.1/hook", range("224.0.0.1", "multicast")],
    ["IPv6 multicast", "https://[ff02::1]/hook", range("ff02::1", "multicast")],
    ["broadcast", "https://255.255.255.255/hook", range("255.255.255.255", "broadcast")],
    ["reserved 240/4", "https://240.0.0.1/hook", range("240.0.0.1", "reserved")],
    ["NAT64 of loopback", "https://[64:ff9b::7f00:1]/hook", range("64:ff9b::7f00:1", "rfc6052")],
    ["localhost", `https://localhost:${port}/hook`, "host 'localhost' names a local or cloud-metadata host"],
    [
      "a name resolving to 127.0.0.1",
      `https://loopback.test:${port}/hook`,
      "host 'loopback.test' resolves to 127.0.0.1, which is in a non-public range (loopback)",
    ],
    [
      "a name with one private address among public ones",
      "https://mixed.test/hook",
      "host 'mixed.test' resolves to 192.168.0.10, which is in a non-public range (private)",
    ],
    ["plain http", "http://public.test/hook", "must use https"],
    ["file scheme", "file:///etc/passwd", "must use https"],
    ["credentials in the URL", "https://user:secret@public.test/hook", "must not contain credentials"],
    ["not a URL", "hooks.example.com/path", "is not a valid absolute URL"],
  ];
}
