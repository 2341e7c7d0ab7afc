// Real-Redis test support: the URL from TEST_REDIS_URL, a prefix of its own per run (so runs
// sharing a Redis never meet), cleanup of that prefix, and a throwaway redis-server for outages.
import { afterAll, describe } from "bun:test";
import { RedisClient, type Subprocess } from "bun";
import { type Logger, silentLogger } from "../../src/logger";
import { createSharedState, type SharedState, type SharedStateOptions } from "../../src/shared-state";

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

const ANNOUNCED = Symbol.for("gateway.test.redis-skip-announced");

/**
 * `describe` when TEST_REDIS_URL is set, else `describe.skip` after printing one line (once per
 * `bun test` run, however many files use it) saying why.
 */
export function describeRedis(name: string, fn: (url: string) => void): void {
  const url = TEST_REDIS_URL;
  if (url) return describe(name, () => fn(url));
  const g = globalThis as Record<symbol, unknown>;
  if (!g[ANNOUNCED]) {
    g[ANNOUNCED] = true;
    console.log("Redis tests skipped: TEST_REDIS_URL is not set (run them with TEST_REDIS_URL=redis://127.0.0.1:6379)");
  }
  describe.skip(name, () => fn(""));
}

/** a prefix no other run (or other test file of this run) uses */
export function uniquePrefix(label: string): string {
  return `gw-test:${label}:${process.pid}:${crypto.randomUUID().slice(0, 8)}:`;
}

/** deletes every key under `prefix` (channels leave nothing behind) */
export async function cleanupPrefix(url: string, prefix: string): Promise<number> {
  const client = new RedisClient(url);
  let deleted = 0;
  try {
    let cursor = "0";
    do {
      const [next, keys] = (await client.scan(cursor, "MATCH", `${prefix.replace(/[\\*?[\]]/g, (c) => `\\${c}`)}*`, "COUNT", 1000)) as [string, string[]];
      cursor = String(next);
      if (keys.length > 0) deleted += Number(await client.send("DEL", keys));
    } while (cursor !== "0");
  } finally {
    client.close();
  }
  return deleted;
}

/** a subscriber of its own, for counting what goes over a channel */
export async function listenRaw(url: string, channel: string): Promise<{ messages: string[]; close(): void }> {
  const client = new RedisClient(url);
  const messages: string[] = [];
  await client.subscribe(channel, (m) => void messages.push(m));
  return { messages, close: () => client.close() };
}

/** polls `check` until it holds; how long it took, in ms (fails after `timeoutMs`) */
export async function eventually(check: () => boolean, timeoutMs = 2_000): Promise<number> {
  const start = performance.now();
  while (!check()) {
    if (performance.now() - start > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await Bun.sleep(1);
  }
  return performance.now() - start;
}

/** a logger that keeps what it is told, to check what is logged (and how often) */
export function recordingLogger(): Logger & { lines: Array<{ level: string; msg: string }> } {
  const lines: Array<{ level: string; msg: string }> = [];
  const log = (level: string) => (msg: string) => void lines.push({ level, msg });
  return { lines, debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

/** a port nothing listens on: bound by the OS, then released */
export function closedPort(): number {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}

export type ThrowawayRedis = { url: string; stop(): Promise<void>; start(): Promise<void> };

/**
 * A redis-server of this test's own on a free port, to stop and start again (an outage no
 * other test sees); undefined when the redis-server binary is not installed.
 */
export async function throwawayRedis(): Promise<ThrowawayRedis | undefined> {
  const bin = Bun.which("redis-server");
  if (!bin) return undefined;
  const port = closedPort();
  let proc: Subprocess | undefined;
  const start = async () => {
    proc = Bun.spawn([bin, "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdout: "ignore", stderr: "ignore" });
    const probe = new RedisClient(`redis://127.0.0.1:${port}`, { autoReconnect: false, enableOfflineQueue: false });
    const deadline = Date.now() + 5_000;
    for (;;) {
      try {
        await probe.connect();
        probe.close();
        return;
      } catch {
        if (Date.now() > deadline) throw new Error("redis-server did not start");
        await Bun.sleep(20);
      }
    }
  };
  const stop = async () => {
    proc?.kill("SIGKILL");
    await proc?.exited;
    proc = undefined;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, start, stop };
}

export type InstanceOptions = Partial<Omit<SharedStateOptions, "prefix" | "instanceId" | "logger">> & { url?: string; logger?: Logger };

/**
 * Shared states on one Redis prefix of their own, as instances of one deployment: `instance()`
 * opens the next (its options override the URL, logger, clock, ...); every one opened is closed
 * and the prefix cleaned after the calling describe block.
 */
export function redisInstances(url: string, label: string): (opts?: InstanceOptions) => Promise<SharedState> {
  const prefix = uniquePrefix(label);
  const opened: SharedState[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((s) => s.close()));
    await cleanupPrefix(url, prefix);
  });
  return async (opts = {}) => {
    const shared = await createSharedState({
      ...opts,
      redisUrl: opts.url ?? url,
      prefix,
      instanceId: `${label}-${opened.length}`,
      logger: opts.logger ?? silentLogger,
    });
    opened.push(shared);
    return shared;
  };
}
