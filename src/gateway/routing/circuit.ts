/**
 * Per-endpoint circuit breaker. `failures` consecutive failures open the circuit for
 * `cooldownMs`; after that one probe request is let through (half-open): success closes
 * it, failure opens it again. An upstream Retry-After holds the endpoint back for as long.
 * Open endpoints are tried last, never dropped.
 */
type State = { consecutive: number; openUntil: number; probing: boolean; retryAfterUntil: number };

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
    if (!s) this.states.set(id, (s = { consecutive: 0, openUntil: 0, probing: false, retryAfterUntil: 0 }));
    return s;
  }

  health(id: string): Health {
    const s = this.states.get(id);
    if (!s) return "healthy";
    const now = this.clock();
    if (s.retryAfterUntil > now) return "open";
    if (s.consecutive < this.failures) return "healthy";
    if (s.openUntil > now || s.probing) return "open";
    return "probe";
  }

  /** Claims the half-open probe slot; false when another request already holds it. */
  claimProbe(id: string): boolean {
    const s = this.state(id);
    if (this.health(id) !== "probe") return false;
    s.probing = true;
    return true;
  }

  success(id: string): void {
    const s = this.states.get(id);
    if (!s) return;
    s.consecutive = 0;
    s.probing = false;
    s.openUntil = 0;
  }

  failure(id: string, retryAfterMs?: number): void {
    const s = this.state(id);
    const now = this.clock();
    s.consecutive++;
    s.probing = false;
    if (s.consecutive >= this.failures) s.openUntil = now + this.cooldownMs;
    if (retryAfterMs && retryAfterMs > 0) s.retryAfterUntil = now + retryAfterMs;
  }
}

/** Retry-After as seconds or an HTTP date, in milliseconds from now. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
