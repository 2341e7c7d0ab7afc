import type { Logger } from "../logger";
import { Listeners } from "./listeners";
import type { RedisLink } from "./redis-link";
import { CACHE_TOPICS, isCacheTopic } from "./topics";
import type { CacheTopic, InvalidationBus } from "./types";

/**
 * Cache invalidation across instances. The publisher's own listeners run at once, whether or
 * not Redis is there: a write must never leave its own instance's cache stale. Topics that
 * could not be sent go out when Redis is back (one entry per topic at most, so nothing grows).
 */
export class RedisBus implements InvalidationBus {
  private listeners: Listeners<[CacheTopic]>;
  private unsent = new Set<CacheTopic>();

  constructor(
    private readonly link: RedisLink,
    private readonly channel: string,
    private readonly instanceId: string,
    logger: Logger,
  ) {
    this.listeners = new Listeners(logger, "cache invalidation");
  }

  publish(topic: CacheTopic): void {
    this.listeners.emit(topic);
    this.send(topic);
  }

  subscribe(listener: (topic: CacheTopic) => void): () => void {
    return this.listeners.add(listener);
  }

  /** a message of the bus channel, from any instance */
  receive(message: { i?: unknown; t?: unknown }): void {
    if (message.i === this.instanceId || !isCacheTopic(message.t)) return;
    this.listeners.emit(message.t);
  }

  /** the commands connection is back: send what could not be sent */
  sendUnsent(): void {
    const topics = [...this.unsent];
    this.unsent.clear();
    for (const topic of topics) this.send(topic);
  }

  /** the subscription was down for a while: any cached value may have been changed meanwhile */
  missedSome(): void {
    for (const topic of CACHE_TOPICS) this.listeners.emit(topic);
  }

  private send(topic: CacheTopic): void {
    const client = this.link.client;
    if (!client) {
      this.unsent.add(topic);
      return;
    }
    client.publish(this.channel, JSON.stringify({ i: this.instanceId, t: topic })).catch(() => this.unsent.add(topic));
  }
}
