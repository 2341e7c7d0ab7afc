/**
 * Which endpoint each session used last, so later requests of the session stay there
 * (prompt caches live on one provider). Bounded: least recently used sessions are
 * forgotten past `capacity`, and entries expire after `ttlMs`.
 *
 * Several instances share affinities (shared-state/router): `set` tells an observer, and
 * `apply` takes another instance's pin without telling it again.
 */
export type AffinityObserver = (key: string, endpointId: string, at: number) => void;

export class SessionAffinity {
  private entries = new Map<string, { endpointId: string; at: number }>();
  private observer: AffinityObserver | undefined;

  constructor(
    private readonly capacity = 10_000,
    private readonly ttlMs = 60 * 60_000,
    private readonly clock: () => number = Date.now,
  ) {}

  get(key: string): string | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (this.clock() - e.at > this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return e.endpointId;
  }

  set(key: string, endpointId: string): void {
    const at = this.clock();
    this.put(key, endpointId, at);
    this.observer?.(key, endpointId, at);
  }

  /** another instance's pin made at `at`; an older one than what this instance holds loses */
  apply(key: string, endpointId: string, at: number): void {
    const e = this.entries.get(key);
    if (e && e.at > at) return;
    if (this.clock() - at > this.ttlMs) return;
    this.put(key, endpointId, at);
  }

  /** at most one observer: the replication of the instance's routing state */
  observe(observer: AffinityObserver | undefined): void {
    this.observer = observer;
  }

  get size(): number {
    return this.entries.size;
  }

  private put(key: string, endpointId: string, at: number): void {
    this.entries.delete(key);
    this.entries.set(key, { endpointId, at });
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
