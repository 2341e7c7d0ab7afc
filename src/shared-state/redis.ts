import type { Logger } from "../logger";
import { RedisFailureCounters } from "./failure-counters/redis";
import { loadKept } from "./kept-snapshot";
import { RedisRateCounters } from "./rate-counters/redis";
import { RedisBus } from "./redis-bus";
import { RedisLink, within } from "./redis-link";
import { redisNames } from "./redis-names";
import { RedisReplica } from "./redis-replica";
import type { SharedState } from "./types";

const LOAD_TIMEOUT_MS = 5_000;
const READY_TIMEOUT_MS = 1_000;
const RETRY_LOAD_MS = 5_000;

export type RedisSharedStateOptions = { url: string; prefix: string; instanceId: string; logger: Logger; rateLeaseMs: number; clock: () => number };

/**
 * Shared state through Redis: one connection for commands (PUBLISH, SET, SCAN) and one that
 * only subscribes, as Redis requires. Either may drop at any time; the instance then works on
 * its own copy, says so once, and catches up when both are back: it re-reads what was kept
 * and treats every cache as stale, since it heard nothing meanwhile.
 */
export async function createRedisSharedState(opts: RedisSharedStateOptions): Promise<SharedState> {
  const { logger, instanceId } = opts;
  const names = redisNames(opts.prefix);
  let outage = false;
  let missed = true; // nothing kept has been read yet
  let closed = false;

  const onMessage = (message: string, channel: string) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      return;
    }
    if (typeof parsed !== "object" || parsed === null) return;
    if (channel === names.busChannel) bus.receive(parsed);
    else if (channel === names.routerChannel) replica.receive(parsed);
  };

  const down = () => {
    missed = true;
    if (outage || closed) return;
    outage = true;
    logger.warn("redis unreachable: routing state and cache invalidations stay on this instance until it is back", { url: redact(opts.url) });
  };

  // one catch-up at a time; whoever asks while it runs waits for that one
  let catching: Promise<void> | undefined;
  const catchUp = (): Promise<void> => {
    if (catching) return catching;
    if (!commands.up || !subscriber.up || !missed || closed) return Promise.resolve();
    missed = false;
    return (catching = readKept().finally(() => (catching = undefined)));
  };
  const readKept = async () => {
    bus.missedSome();
    const client = commands.client;
    const kept = client ? await within(loadKept(client, names), LOAD_TIMEOUT_MS, undefined) : undefined;
    if (kept) replica.restore(kept);
    else {
      missed = true;
      logger.warn("could not read the routing state kept in redis; trying again shortly", {});
      setTimeout(() => void catchUp(), RETRY_LOAD_MS).unref?.();
    }
    if (outage) {
      outage = false;
      logger.info("redis reachable again: replication resumed", { dropped: replica.dropped });
      replica.dropped = 0;
    }
  };

  const commands = new RedisLink({
    url: opts.url,
    onUp: () => {
      bus.sendUnsent();
      void catchUp();
    },
    onDown: down,
  });
  const subscriber = new RedisLink({
    url: opts.url,
    prepare: (client) => client.subscribe([names.busChannel, names.routerChannel], onMessage),
    onUp: () => void catchUp(),
    onDown: down,
  });
  const bus = new RedisBus(commands, names.busChannel, instanceId, logger);
  const replica = new RedisReplica(commands, names, instanceId, logger);
  const rates = new RedisRateCounters({ link: commands, keyStart: names.rate, leaseMs: opts.rateLeaseMs, clock: opts.clock, logger });
  const failures = new RedisFailureCounters({ link: commands, keyOf: names.failures, logger });

  const [commandsUp, subscribed] = await Promise.all([commands.start(), subscriber.start()]);
  if (!commandsUp || !subscribed) down();
  // the links' own onUp ran before both were up; the kept state is read once both are
  await catchUp();

  return {
    kind: "redis",
    instanceId,
    bus,
    replica,
    rates,
    failures,
    async ready() {
      return subscriber.up && (await commands.ping(READY_TIMEOUT_MS));
    },
    async close() {
      closed = true;
      replica.close();
      await rates.close();
      // PING goes after everything queued on the connection: when it answers, all was sent
      await commands.ping(READY_TIMEOUT_MS);
      commands.close();
      subscriber.close();
    },
  };
}

/** a URL may carry a password */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(invalid url)";
  }
}
