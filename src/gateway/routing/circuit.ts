/**
 * Per-endpoint circuit breaker. `failures` consecutive failures open the circuit for
 * `cooldownMs`; after that one probe request is let through (half-open): success closes
 * it, failure opens it again. An upstream Retry-After holds the endpoint back for as long.
 * Open endpoints are tried last, never dropped.
 *
 * Several instances share circuits (shared-state/router): each local change is told to an
 * observer, and the `apply*` methods replay another instance's change without telling it
 * again, so nothing echoes back and forth.
 */
export type CircuitState = { consecutive: number; openUntil: number; retryAfterUntil: number };

export type Health = "healthy" | "open" | "probe";

/** Local changes, with the clock reading they used, so every instance computes the same deadlines. */
export interface CircuitObserver {
  failure(id: string, at: number, retryAfterMs: number | undefined): void;
  success(id: string): void;
  probe(id: string, at: number): void;
}

/** A local failure opened an endpoint's circuit, or a local success closed it. */
export type CircuitTransition = (id: string, change: "opened" | "closed") => void;

export class CircuitBreakers {
  private states = new Map<string, CircuitState>();
  private observer: CircuitObserver | undefined;
  private transitions: CircuitTransition | undefined;

  constructor(
    private failures: number,
    private cooldownMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** new thresholds from a configuration reload; every endpoint's run of failures is kept */
  retune(failures: number, cooldownMs: number): void {
    this.failures = failures;
    this.cooldownMs = cooldownMs;
  }

  private state(id: string): CircuitState {
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
    const at = this.clock();
    this.applyProbe(id, at);
    this.observer?.probe(id, at);
    return true;
  }

  success(id: string): void {
    const s = this.states.get(id);
    if (!s) return;
    // only a success that closes something is worth telling: most successes change nothing
    const changed = s.consecutive !== 0 || s.openUntil !== 0 || s.retryAfterUntil !== 0;
    const wasOpen = s.consecutive >= this.failures;
    this.applySuccess(id);
    if (changed) this.observer?.success(id);
    if (wasOpen) this.transitions?.(id, "closed");
  }

  failure(id: string, retryAfterMs?: number): void {
    const at = this.clock();
    const before = this.health(id);
    this.applyFailure(id, at, retryAfterMs);
    this.observer?.failure(id, at, retryAfterMs);
    // opened by this failure: the run of failures reached the threshold, or the probe failed
    if (this.states.get(id)!.consecutive === this.failures || before === "probe") this.transitions?.(id, "opened");
  }

  /** at most one listener: the operator's log */
  onTransition(listener: CircuitTransition | undefined): void {
    this.transitions = listener;
  }

  /** endpoints whose circuit is not closed now */
  notClosed(): Array<{ id: string; health: "open" | "probe" }> {
    const out: Array<{ id: string; health: "open" | "probe" }> = [];
    for (const id of this.states.keys()) {
      const health = this.health(id);
      if (health !== "healthy") out.push({ id, health });
    }
    return out;
  }

  /** at most one observer: the replication of the instance's routing state */
  observe(observer: CircuitObserver | undefined): void {
    this.observer = observer;
  }

  /** a probe claimed at `at` (here or on another instance): the others wait one more cooldown */
  applyProbe(id: string, at: number): void {
    this.state(id).openUntil = at + this.cooldownMs;
  }

  applySuccess(id: string): void {
    const s = this.states.get(id);
    if (!s) return;
    s.consecutive = 0;
    s.openUntil = 0;
    s.retryAfterUntil = 0;
  }

  applyFailure(id: string, at: number, retryAfterMs?: number): void {
    const s = this.state(id);
    s.consecutive++;
    if (s.consecutive >= this.failures) s.openUntil = at + this.cooldownMs;
    if (retryAfterMs && retryAfterMs > 0) s.retryAfterUntil = at + retryAfterMs;
  }

  /** merges a state kept by another instance (later deadlines and longer runs of failures win) */
  restore(id: string, kept: CircuitState): void {
    const s = this.state(id);
    s.consecutive = Math.max(s.consecutive, kept.consecutive);
    s.openUntil = Math.max(s.openUntil, kept.openUntil);
    s.retryAfterUntil = Math.max(s.retryAfterUntil, kept.retryAfterUntil);
  }

  /** a copy of an endpoint's state, undefined when it never failed */
  snapshot(id: string): CircuitState | undefined {
    const s = this.states.get(id);
    return s ? { ...s } : undefined;
  }
}
