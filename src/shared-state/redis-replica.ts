import type { Logger } from "../logger";
import type { RedisLink } from "./redis-link";
import type { RedisNames } from "./redis-names";
import type { Replica, ReplicaEvent, ReplicaListener } from "./types";

/** a busy turn still goes out as one message; only a pathological one is split */
const MAX_EVENTS_PER_MESSAGE = 10_000;
/** what one turn may queue; past it changes are dropped (bounded memory whatever happens) */
const MAX_QUEUED = 100_000;
/** events heard before the router state listens (between start and createRouterState) */
const MAX_EARLY = 10_000;
/** bytes waiting in the client's socket buffer past which Redis is too slow to feed */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

type Keep = { value: string; ttlMs: number } | null;

/**
 * Routing changes across instances. `send`, `keep` and `drop` only queue; the queue goes out
 * at the end of the event-loop turn (setImmediate, after every callback of this turn's I/O)
 * as one PUBLISH of all events plus one SET or DEL per kept key that changed, pipelined on
 * one connection. Kept keys are written before the PUBLISH: an instance that starts
 * subscribes before it reads them, so it either reads a change or hears it.
 */
export class RedisReplica implements Replica {
  private queued: ReplicaEvent[] = [];
  private keeps = new Map<string, Keep>();
  private scheduled = false;
  private closed = false;
  private listener: ReplicaListener | undefined;
  private earlyKept: ReadonlyMap<string, string> | undefined;
  private earlyEvents: ReplicaEvent[][] = [];
  private earlyCount = 0;
  /** events and keys not sent (Redis down or too slow), for the log when it is back */
  dropped = 0;

  constructor(
    private readonly link: RedisLink,
    private readonly names: RedisNames,
    private readonly instanceId: string,
    private readonly logger: Logger,
  ) {}

  send(event: ReplicaEvent): void {
    if (this.closed) return;
    if (this.queued.length >= MAX_QUEUED) {
      this.dropped++;
      return;
    }
    this.queued.push(event);
    this.schedule();
  }

  keep(key: string, value: string, ttlMs: number): void {
    this.queueKeep(key, { value, ttlMs });
  }

  drop(key: string): void {
    this.queueKeep(key, null);
  }

  listen(listener: ReplicaListener): () => void {
    this.listener = listener;
    const kept = this.earlyKept;
    const early = this.earlyEvents;
    this.earlyKept = undefined;
    this.earlyEvents = [];
    this.earlyCount = 0;
    if (kept) this.deliver(() => listener.restore(kept));
    for (const events of early) this.deliver(() => listener.events(events));
    return () => {
      if (this.listener === listener) this.listener = undefined;
    };
  }

  /** a message of the router channel, from any instance; its own echoes are ignored */
  receive(message: { i?: unknown; e?: unknown }): void {
    if (message.i === this.instanceId || !Array.isArray(message.e)) return;
    const events = message.e.filter(Array.isArray) as ReplicaEvent[];
    const listener = this.listener;
    if (listener) return this.deliver(() => listener.events(events));
    if (this.earlyCount + events.length > MAX_EARLY) return;
    this.earlyCount += events.length;
    this.earlyEvents.push(events);
  }

  /** what instances kept, read at start or after an outage */
  restore(kept: ReadonlyMap<string, string>): void {
    const listener = this.listener;
    if (listener) this.deliver(() => listener.restore(kept));
    else this.earlyKept = kept;
  }

  /** sends what is queued now (close calls it; otherwise the end of the turn does) */
  flush(): void {
    this.scheduled = false;
    const events = this.queued;
    const keeps = this.keeps;
    this.queued = [];
    this.keeps = new Map();
    if (events.length === 0 && keeps.size === 0) return;
    const client = this.link.client;
    if (!client || client.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.dropped += events.length + keeps.size;
      return;
    }
    const ignore = () => {};
    for (const [key, keep] of keeps) {
      const name = this.names.kept(key);
      const sent = keep ? client.send("SET", [name, keep.value, "PX", String(Math.max(1, Math.ceil(keep.ttlMs)))]) : client.send("DEL", [name]);
      sent.catch(ignore);
    }
    for (let i = 0; i < events.length; i += MAX_EVENTS_PER_MESSAGE) {
      const chunk = events.length <= MAX_EVENTS_PER_MESSAGE ? events : events.slice(i, i + MAX_EVENTS_PER_MESSAGE);
      client.publish(this.names.routerChannel, JSON.stringify({ i: this.instanceId, e: chunk })).catch(ignore);
    }
  }

  close(): void {
    this.flush();
    this.closed = true;
    this.listener = undefined;
  }

  private queueKeep(key: string, keep: Keep): void {
    if (this.closed) return;
    if (this.keeps.size >= MAX_QUEUED && !this.keeps.has(key)) {
      this.dropped++;
      return;
    }
    this.keeps.set(key, keep);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  /** a failing listener must not stop the subscription's dispatch */
  private deliver(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.logger.error("applying another instance's routing change failed", { error: String(err) });
    }
  }
}
