/**
 * Which endpoint each session used last, so later requests of the session stay there
 * (prompt caches live on one provider). Bounded: least recently used sessions are
 * forgotten past `capacity`, and entries expire after `ttlMs`.
 */
export class SessionAffinity {
  private entries = new Map<string, { endpointId: string; at: number }>();

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
    this.entries.delete(key);
    this.entries.set(key, { endpointId, at: this.clock() });
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
