/**
 * The one reader of `Retry-After` (RFC 9110, section 10.2.3: delay-seconds or an HTTP-date), for
 * every upstream, receiver and destination the gateway calls. Milliseconds from `now`; a date in
 * the past is 0. Lenient where providers are (a fraction of a second, "1.5"); a negative number,
 * a word or an empty value is no hint at all (undefined), never a retry at once.
 */
export function retryAfterMs(value: string | null | undefined, now: number): number | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // Date.parse takes "-5" as a year; an HTTP-date always names its weekday and month
  if (!/[A-Za-z]/.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The same hint in whole seconds (rounded up), for schedules counted in seconds. */
export function retryAfterSeconds(value: string | null | undefined, now: number): number | undefined {
  const ms = retryAfterMs(value, now);
  return ms === undefined ? undefined : Math.ceil(ms / 1000);
}

/**
 * `retry-after-ms`, the delay in milliseconds OpenAI and Azure OpenAI send beside Retry-After
 * (their SDKs read it first). Not a standard header: a non-negative number (a fraction too), else
 * no hint. Relative, so it needs no clock.
 */
export function retryAfterMsHeader(value: string | null | undefined): number | undefined {
  const trimmed = value?.trim();
  return trimmed && /^\d+(\.\d+)?$/.test(trimmed) ? Math.round(Number(trimmed)) : undefined;
}
