/**
 * Every inference request asks which BYOK credentials its workspace has; the answer changes
 * only when a credential or workspace is written. Writers in this process clear the cache;
 * the short lifetime bounds staleness for writes made by another process on the same file.
 */
export class UsableByokCache<T> {
  private entries = new Map<string, { at: number; rows: T[] }>();

  constructor(
    private readonly ttlMs = 2_000,
    private readonly capacity = 1_000,
    private readonly clock: () => number = Date.now,
  ) {}

  get(workspaceId: string, load: () => T[]): T[] {
    const now = this.clock();
    const hit = this.entries.get(workspaceId);
    if (hit && now - hit.at < this.ttlMs) return hit.rows;
    const rows = load();
    if (this.entries.size >= this.capacity) this.entries.clear();
    this.entries.set(workspaceId, { at: now, rows });
    return rows;
  }

  clear(): void {
    this.entries.clear();
  }
}
