// Several "instances" in one process: a SharedState and a RouterState each, on one prefix.

import { createRouterState, type RouterState } from "../../src/gateway/routing/router-state";
import { type Logger, silentLogger } from "../../src/logger";
import { createSharedState, type SharedState } from "../../src/shared-state";
import { cleanupPrefix, uniquePrefix } from "../support/redis";

export const ROUTING = { routing: { firstByteTimeoutMs: 60_000, circuitFailures: 3, circuitCooldownMs: 1_000 } };
export const T0 = 1_700_000_040_000; // a whole minute

export type Instance = { shared: SharedState; router: RouterState };

/** one timeline for all instances of a test, moved by hand */
export function testClock(start = T0) {
  let now = start;
  return { clock: () => now, tick: (ms: number) => (now += ms) };
}

export function cluster(url: string, label: string) {
  const prefix = uniquePrefix(label);
  const opened: SharedState[] = [];
  let n = 0;
  const c = testClock();
  return {
    prefix,
    ...c,
    async instance(opts: { prefix?: string; logger?: Logger; url?: string } = {}): Promise<Instance> {
      const shared = await createSharedState({
        redisUrl: opts.url ?? url,
        prefix: opts.prefix ?? prefix,
        instanceId: `${label}-${++n}`,
        logger: opts.logger ?? silentLogger,
      });
      opened.push(shared);
      return { shared, router: createRouterState(ROUTING, c.clock, shared) };
    },
    async close() {
      await Promise.all(opened.map((s) => s.close()));
      await cleanupPrefix(url, prefix);
    },
  };
}
