/**
 * The masked form of a provider key shown instead of it: enough of both ends to tell keys
 * apart, never more than a third of a key.
 */
export function maskProviderKey(raw: string): string {
  const key = raw.trim();
  if (key.length >= 24) return `${key.slice(0, 4)}...${key.slice(-4)}`;
  if (key.length >= 12) return `${key.slice(0, 2)}...${key.slice(-2)}`;
  return "****";
}
