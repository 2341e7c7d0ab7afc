/**
 * A small cache for lookups every request makes (its key, its workspace and user, the
 * workspace's BYOK credentials) whose answers change only on writes. Every write clears it on
 * every instance (see cached-store.ts); the short lifetime bounds staleness when a clear is
 * missed (Redis away, a CLI writing the SQLite file). Misses are not cached, so a key created
 * elsewhere works at once.
 */
export class ReadCache<T> {
  /** the settled promise itself is kept, so a hit allocates nothing */
  private entries = new Map<string, { at: number; value: Promise<T> }>();
  /** bumped by clear(): a load that began before a clear must not store what it read */
  private epoch = 0;

  constructor(
    private readonly ttlMs = 1_000,
    private readonly capacity = 1_000,
    private readonly clock: () => number = Date.now,
  ) {}

  get(key: string, load: () => T | undefined | Promise<T | undefined>): Promise<T | undefined> {
    const now = this.clock();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    return this.load(key, load, now);
  }

  private async load(key: string, load: () => T | undefined | Promise<T | undefined>, now: number): Promise<T | undefined> {
    const epoch = this.epoch;
    const value = await load();
    if (value === undefined) {
      this.entries.delete(key);
      return undefined;
    }
    if (epoch !== this.epoch) return value;
    if (this.entries.size >= this.capacity) this.entries.clear();
    this.entries.set(key, { at: now, value: Promise.resolve(value) });
    return value;
  }

  clear(): void {
    this.epoch++;
    this.entries.clear();
  }
}
