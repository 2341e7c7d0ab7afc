/**
 * Where an authorization sends the browser back to: an https URL, or http on this machine
 * (localhost or 127.0.0.1, any port) for apps running on the user's own computer. No user
 * information (a URL such as https://good.example@evil.example misleads people) and no fragment
 * (RFC 6749 §3.1.2).
 */
export function callbackProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL";
  }
  if (url.username || url.password) return "must not contain a user name or password";
  if (url.hash || raw.includes("#")) return "must not contain a fragment (#)";
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && (url.hostname === "localhost" || url.hostname === "127.0.0.1")) return null;
  return "must be an https: URL, or http://localhost or http://127.0.0.1 on any port";
}

/** The app as people see it on the consent page: scheme, host and port. */
export const callbackOrigin = (callbackUrl: string): string => new URL(callbackUrl).origin;

/** The callback URL with the given query parameters added (its own kept, ours replacing any of the same name). */
export function callbackWith(callbackUrl: string, params: Record<string, string>): string {
  const url = new URL(callbackUrl);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.href;
}

/** OpenRouter numbers apps; here an app is its callback origin, numbered by a stable hash of it (a positive 31-bit integer). */
export function appIdOf(callbackUrl: string): number {
  const digest = new Bun.CryptoHasher("sha256").update(callbackOrigin(callbackUrl)).digest();
  return digest.readUInt32BE(0) & 0x7fffffff;
}
