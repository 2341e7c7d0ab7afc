import { t } from "elysia";
import type { RateLimit } from "../../store/store";

/** The columns are 32-bit integers on PostgreSQL. */
const MAX_LIMIT = 2_147_483_647;

const limit = (description: string) => t.Optional(t.Nullable(t.Integer({ minimum: 1, maximum: MAX_LIMIT, description })));

/** What create and PATCH accept: each limit a positive integer, null clears it, absent keeps it. */
export const RateLimitInput = t.Object(
  {
    rpm: limit("requests per minute (fixed UTC minutes)"),
    tpm: limit("tokens per minute, prompt and completion (fixed UTC minutes)"),
    concurrency: limit("requests in flight at once"),
  },
  { additionalProperties: false },
);

/** On a key: null falls back to its workspace's default, limit by limit; on a workspace: the default of its keys. */
export const RateLimitField = t.Optional(
  t.Nullable(RateLimitInput, { description: "Rate limits; a key's unset limits take its workspace's default. null clears all of them" }),
);

export const RateLimitData = t.Object({ rpm: t.Nullable(t.Integer()), tpm: t.Nullable(t.Integer()), concurrency: t.Nullable(t.Integer()) });

export type RateLimitInputBody = typeof RateLimitInput.static;

/** `current` with what the body sent laid over it: a sent value or null replaces, an absent one stays; null as a whole clears all. */
export function patchedRateLimit(current: RateLimit, input: RateLimitInputBody | null): RateLimit {
  if (input === null) return { rpm: null, tpm: null, concurrency: null };
  const pick = (name: keyof RateLimit) => (input[name] === undefined ? current[name] : input[name]);
  return { rpm: pick("rpm"), tpm: pick("tpm"), concurrency: pick("concurrency") };
}
