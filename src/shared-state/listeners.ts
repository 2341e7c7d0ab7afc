import type { Logger } from "../logger";

/**
 * A set of listeners that are called one by one. A throwing listener is logged and skipped:
 * it must not keep the others (or the publisher, which may be serving a request) from running.
 */
export class Listeners<T extends unknown[]> {
  private set = new Set<(...args: T) => void>();

  constructor(
    private readonly logger: Logger,
    private readonly what: string,
  ) {}

  add(listener: (...args: T) => void): () => void {
    // a wrapper per subscription, so the same function subscribed twice is also removed twice
    const entry = (...args: T) => listener(...args);
    this.set.add(entry);
    return () => void this.set.delete(entry);
  }

  emit(...args: T): void {
    for (const listener of this.set) {
      try {
        listener(...args);
      } catch (err) {
        this.logger.error(`${this.what} listener failed`, { error: String(err) });
      }
    }
  }
}
