import { getOpenFileLimit, setOpenFileSoftLimit } from "./libc";

/** What the open-file limit was at start and what it is now; null where it cannot be read. */
export type OpenFileLimits = { soft_before: number | null; soft: number | null; hard: number | null };

/** macOS refuses a soft limit above OPEN_MAX even when the hard limit is unlimited. */
const DARWIN_OPEN_MAX = 10_240n;

const asNumber = (n: bigint) => (n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n));

/**
 * Every stream holds two sockets (client and upstream): the soft limit, often 1,024, caps
 * concurrent streams long before memory does, and only the hard limit is the operator's choice.
 */
export function raiseOpenFileLimit(): OpenFileLimits {
  const before = getOpenFileLimit();
  if (!before) return { soft_before: null, soft: null, hard: null };
  if (before.soft < before.hard && !setOpenFileSoftLimit(before.hard, before.hard) && process.platform === "darwin")
    setOpenFileSoftLimit(DARWIN_OPEN_MAX < before.hard ? DARWIN_OPEN_MAX : before.hard, before.hard);
  const after = getOpenFileLimit() ?? before;
  return { soft_before: asNumber(before.soft), soft: asNumber(after.soft), hard: asNumber(after.hard) };
}
