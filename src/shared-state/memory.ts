import type { Logger } from "../logger";
import { MemoryFailureCounters } from "./failure-counters/memory";
import { Listeners } from "./listeners";
import { MemoryRateCounters } from "./rate-counters/memory";
import type { CacheTopic, InvalidationBus, Replica, SharedState } from "./types";

/** One instance alone: the bus calls this process's listeners, and routing state has nobody to reach. */
export function createMemorySharedState(instanceId: string, logger: Logger): SharedState {
  const listeners = new Listeners<[CacheTopic]>(logger, "cache invalidation");
  const bus: InvalidationBus = {
    publish: (topic) => listeners.emit(topic),
    subscribe: (listener) => listeners.add(listener),
  };
  const replica: Replica = {
    send() {},
    keep() {},
    drop() {},
    listen: () => () => {},
  };
  return {
    kind: "memory",
    instanceId,
    bus,
    replica,
    rates: new MemoryRateCounters(),
    failures: new MemoryFailureCounters(),
    ready: async () => true,
    close: async () => {},
  };
}
