/**
 * A small cache for lookups every request makes (its key, its workspace, the workspace's BYOK
 * credentials) whose answers change only on writes. Writers in this process clear it; the
 * short lifetime bounds staleness for writes made by another process on the same file.
 * Misses are not cached, so a key created by the CLI works at once.
 */
export class ReadCache<T> {
  private entries = new Map<string, { at: number; value: T }>();

  constructor(
    private readonly ttlMs = 1_000,
    private readonly capacity = 1_000,
    private readonly clock: () => number = Date.now,
  ) {}

  get(key: string, load: () => T | undefined): T | undefined {
    const now = this.clock();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    const value = load();
    if (value === undefined) {
      this.entries.delete(key);
      return undefined;
    }
    if (this.entries.size >= this.capacity) this.entries.clear();
    this.entries.set(key, { at: now, value });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
