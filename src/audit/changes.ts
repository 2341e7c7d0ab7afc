/** What an event says changed: each field that differs, `{from, to}`; null on the side where the thing did not exist. */
export type FieldChanges = Record<string, { from: unknown; to: unknown }>;

/** What a secret's value reads as in an event: that it was set or changed is kept, never the value. */
export const REDACTED = "[redacted]";

const shown = (value: unknown, secret: boolean): unknown => (value === undefined || value === null ? null : secret ? REDACTED : value);

/**
 * The fields that differ between two views of a thing (null: it did not exist before, or no longer
 * does). Fields named in `secrets` read as REDACTED whatever their value; a changed secret still
 * shows as a change, so compare what changes with it (a ciphertext, a hash), never the secret itself.
 */
export function changesBetween(before: Record<string, unknown> | null, after: Record<string, unknown> | null, secrets: readonly string[] = []): FieldChanges {
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const changes: FieldChanges = {};
  for (const field of fields) {
    const from = before?.[field] ?? null;
    const to = after?.[field] ?? null;
    if (Bun.deepEquals(from, to)) continue;
    const secret = secrets.includes(field);
    changes[field] = { from: shown(from, secret), to: shown(to, secret) };
  }
  return changes;
}
