/**
 * Every Redis name this gateway uses starts with the configured prefix, so deployments (and
 * test runs) that share one Redis never read each other's messages or keys.
 */
export type RedisNames = {
  /** cache invalidations: {"i": instanceId, "t": topic} */
  busChannel: string;
  /** routing changes: {"i": instanceId, "e": [event, ...]} */
  routerChannel: string;
  /** the Redis key of what a replica keeps under `key` */
  kept(key: string): string;
  /** `kept(key)` back to `key`; undefined for a name that is not ours */
  keptKeyOf(name: string): string | undefined;
  /** SCAN pattern that matches exactly the kept keys */
  keptPattern: string;
  /** the start of a rate-limit subject's keys; the braces keep them in one Redis Cluster slot, as one script needs */
  rate(subject: string): string;
  /** a failure counter's key (sign-in throttling) */
  failures(subject: string): string;
};

/** glob characters in the prefix must match themselves in SCAN's MATCH */
const escapeGlob = (s: string) => s.replace(/[\\*?[\]]/g, (c) => `\\${c}`);

export function redisNames(prefix: string): RedisNames {
  const keptStart = `${prefix}kept:`;
  return {
    busChannel: `${prefix}bus`,
    routerChannel: `${prefix}router`,
    kept: (key) => keptStart + key,
    keptKeyOf: (name) => (name.startsWith(keptStart) ? name.slice(keptStart.length) : undefined),
    keptPattern: `${escapeGlob(keptStart)}*`,
    rate: (subject) => `${prefix}rate:{${subject}}:`,
    failures: (subject) => `${prefix}fail:${subject}`,
  };
}
