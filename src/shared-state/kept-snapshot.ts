import type { RedisClient } from "bun";
import type { RedisNames } from "./redis-names";

/** more kept keys than any router state holds (10,000 sessions, one circuit per endpoint) */
const MAX_KEPT = 100_000;
const SCAN_COUNT = 1_000;

/**
 * Reads every kept key of this prefix: SCAN by pattern (never KEYS, which blocks Redis), one
 * MGET per page. A key that expires between the two reads comes back null and is skipped.
 */
export async function loadKept(client: RedisClient, names: RedisNames): Promise<Map<string, string>> {
  const kept = new Map<string, string>();
  let cursor = "0";
  do {
    const [next, keys] = (await client.scan(cursor, "MATCH", names.keptPattern, "COUNT", SCAN_COUNT)) as [string, string[]];
    cursor = String(next);
    if (keys.length === 0) continue;
    const values = (await client.send("MGET", keys)) as Array<string | null>;
    keys.forEach((name, i) => {
      const key = names.keptKeyOf(name);
      const value = values[i];
      if (key !== undefined && typeof value === "string") kept.set(key, value);
    });
  } while (cursor !== "0" && kept.size < MAX_KEPT);
  return kept;
}
