/**
 * Per-endpoint circuit breaker. `failures` consecutive failures open the circuit for
 * `cooldownMs`; after that one probe request is let through (half-open): success closes
 * it, failure opens it again. An upstream Retry-After holds the endpoint back for as long.
 * Open endpoints are tried last, never dropped.
 */
type State = { consecutive: number; openUntil: number; retryAfterUntil: number };

export type Health = "healthy" | "open" | "probe";

export class CircuitBreakers {
  private states = new Map<string, State>();

  constructor(
    private readonly failures: number,
    private readonly cooldownMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  private state(id: string): State {
    let s = this.states.get(id);
    if (!s) this.states.set(id, (s = { consecutive: 0, openUntil: 0, retryAfterUntil: 0 }));
    return s;
  }

  health(id: string): Health {
    const s = this.states.get(id);
    if (!s) return "healthy";
    const now = this.clock();
    if (s.retryAfterUntil > now) return "open";
    if (s.consecutive < this.failures) return "healthy";
    return s.openUntil > now ? "open" : "probe";
  }

  /**
   * Claims the half-open probe slot; false when another request already holds it. The claim
   * is a lease of one more cooldown: a probe whose outcome is never reported (another
   * candidate served first, the request was rejected as invalid, the client left) must not
   * keep the endpoint open for ever.
   */
  claimProbe(id: string): boolean {
    if (this.health(id) !== "probe") return false;
    this.state(id).openUntil = this.clock() + this.cooldownMs;
    return true;
  }

  success(id: string): void {
    const s = this.states.get(id);
    if (!s) return;
    s.consecutive = 0;
    s.openUntil = 0;
    s.retryAfterUntil = 0;
  }

  failure(id: string, retryAfterMs?: number): void {
    const s = this.state(id);
    const now = this.clock();
    s.consecutive++;
    if (s.consecutive >= this.failures) s.openUntil = now + this.cooldownMs;
    if (retryAfterMs && retryAfterMs > 0) s.retryAfterUntil = now + retryAfterMs;
  }
}

/** Retry-After as seconds or an HTTP date, in milliseconds from now. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (!value?.trim()) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
