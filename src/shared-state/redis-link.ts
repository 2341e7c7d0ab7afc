import { RedisClient } from "bun";

export type LinkOptions = {
  url: string;
  /** runs on each new connection before it counts as up: the subscriber subscribes here */
  prepare?: (client: RedisClient) => Promise<unknown>;
  onUp?: () => void;
  onDown?: () => void;
  connectTimeoutMs?: number;
};

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;
const HEARTBEAT_MS = 5_000;
const HEARTBEAT_TIMEOUT_MS = 2_000;

/** resolves with the promise's value, or with `fallback` after `ms` (never rejects) */
export function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)));
  return Promise.race([promise.catch(() => fallback), late]).finally(() => clearTimeout(timer));
}

/**
 * One Redis connection that comes back by itself. Bun's own reconnection keeps a subscriber's
 * listeners but not its server-side subscriptions, and subscribing again on the reconnected
 * client registers every listener twice; its offline queue also grows without bound while
 * Redis is away. So each connection is a fresh client without either, and this link retries
 * with backoff for as long as it is open. Commands on a link that is down fail at once
 * (`client` is null): callers drop what they meant to send instead of waiting.
 */
export class RedisLink {
  /** the connected client, null while down */
  client: RedisClient | null = null;
  private closed = false;
  private attempts = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly opts: LinkOptions) {}

  get up(): boolean {
    return this.client?.connected === true;
  }

  /** the first attempt; false when Redis is unreachable (the link keeps retrying) */
  start(): Promise<boolean> {
    return this.connect();
  }

  /** answers within `ms`; false when down or slow */
  async ping(ms: number): Promise<boolean> {
    const client = this.client;
    if (!client?.connected) return false;
    return within(
      client.send("PING", []).then((r) => r === "PONG"),
      ms,
      false,
    );
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.heartbeat);
    const client = this.client;
    this.client = null;
    client?.close();
  }

  private async connect(): Promise<boolean> {
    if (this.closed) return false;
    const client = new RedisClient(this.opts.url, {
      autoReconnect: false,
      enableOfflineQueue: false,
      connectionTimeout: this.opts.connectTimeoutMs ?? 2_000,
    });
    client.onclose = () => {
      if (this.client === client) this.lost(client);
    };
    try {
      await client.connect();
      await this.opts.prepare?.(client);
      if (!client.connected) throw new Error("connection closed while preparing it");
    } catch {
      client.onclose = null;
      client.close();
      this.scheduleRetry();
      return false;
    }
    if (this.closed) {
      client.close();
      return false;
    }
    this.client = client;
    this.attempts = 0;
    this.startHeartbeat(client);
    this.opts.onUp?.();
    return true;
  }

  private lost(client: RedisClient): void {
    this.client = null;
    clearInterval(this.heartbeat);
    client.onclose = null;
    client.close();
    if (this.closed) return;
    this.opts.onDown?.();
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.closed) return;
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** this.attempts++);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
    // a retry alone must not keep a process (or a test run) alive
    this.retryTimer.unref?.();
  }

  /**
   * A peer that vanished without closing the socket (a network partition) leaves the client
   * "connected" for minutes; a PING that goes unanswered ends the connection so the link
   * reconnects and the instance knows it is cut off.
   */
  private startHeartbeat(client: RedisClient): void {
    clearInterval(this.heartbeat);
    this.heartbeat = setInterval(async () => {
      if (this.client !== client) return;
      const alive = await within(
        client.send("PING", []).then(() => true),
        HEARTBEAT_TIMEOUT_MS,
        false,
      );
      if (!alive && this.client === client) this.lost(client);
    }, HEARTBEAT_MS);
    this.heartbeat.unref?.();
  }
}
