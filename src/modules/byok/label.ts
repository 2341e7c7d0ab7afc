/**
 * The masked form of a provider key shown instead of it: enough of both ends to tell keys
 * apart, never more than a third of a key. A service-account key file (JSON) is told apart by
 * its account, masked the same way: its own ends are only braces.
 */
export function maskProviderKey(raw: string): string {
  const key = accountOf(raw) ?? raw.trim();
  if (key.length >= 24) return `${key.slice(0, 4)}...${key.slice(-4)}`;
  if (key.length >= 12) return `${key.slice(0, 2)}...${key.slice(-2)}`;
  return "****";
}

function accountOf(raw: string): string | undefined {
  if (!raw.trimStart().startsWith("{")) return undefined;
  try {
    const email = (JSON.parse(raw) as { client_email?: unknown }).client_email;
    return typeof email === "string" ? email : undefined;
  } catch {
    return undefined;
  }
}
