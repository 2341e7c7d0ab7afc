/** Epoch milliseconds to the ISO 8601 UTC form used on the wire. */
export const isoTime = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : isoTime(ms));

const UTC_WITH_SECONDS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]00:?00)$/;

/** Parses a UTC ISO 8601 date-time that includes seconds; undefined when it is not one. */
export function parseUtcDateTime(value: string): number | undefined {
  if (!UTC_WITH_SECONDS.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}
