import type { RedisClient } from "bun";
import type { Logger } from "../../logger";
import { type RedisLink, within } from "../redis-link";
import { MemoryRateCounters } from "./memory";
import { ACQUIRE, RELEASE } from "./redis-scripts";
import type { RateAcquire, RateCounters, RateRelease, RateVerdict } from "./types";

/** A check that Redis does not answer within this counts on this instance instead. */
const ANSWER_WITHIN_MS = 1_000;
/** Window counts outlive their window by this much, for clocks that disagree a little. */
const WINDOW_GRACE_MS = 60_000;

export type RedisRateOptions = { link: RedisLink; keyStart: (subject: string) => string; leaseMs: number; clock: () => number; logger: Logger };

type Held = { subject: string; slot: boolean; inRedis: boolean };

const sha1 = (text: string) => new Bun.CryptoHasher("sha1").update(text).digest("hex");
const SCRIPTS = { acquire: { text: ACQUIRE, sha: sha1(ACQUIRE) }, release: { text: RELEASE, sha: sha1(RELEASE) } };

/** EVALSHA, and EVAL once when this Redis has not seen the script yet (a restart flushes them). */
async function runScript(client: RedisClient, script: { text: string; sha: string }, keys: string[], args: Array<string | number>): Promise<unknown> {
  const rest = [String(keys.length), ...keys, ...args.map(String)];
  try {
    return await client.send("EVALSHA", [script.sha, ...rest]);
  } catch (err) {
    if (!String(err).includes("NOSCRIPT")) throw err;
    return client.send("EVAL", [script.text, ...rest]);
  }
}

/**
 * Counters every instance shares: one script per check, so N instances admit exactly what one
 * would. A slot is a member of the key's sorted set scored by its lease's expiry; this instance
 * moves the expiry of the slots it holds one lease ahead every third of a lease, so a slot of an
 * instance that died is free at most one lease later. While Redis is unreachable (or slow), the
 * instance counts on its own (limits then hold per instance) and says so once.
 */
export class RedisRateCounters implements RateCounters {
  private readonly local = new MemoryRateCounters();
  /** requests admitted here and not yet released, by lease: where they were counted */
  private readonly held = new Map<string, Held>();
  private readonly renewal: ReturnType<typeof setInterval>;
  private alone = false;

  constructor(private readonly opts: RedisRateOptions) {
    this.renewal = setInterval(() => void this.renew(), Math.max(250, Math.floor(opts.leaseMs / 3)));
    this.renewal.unref?.();
  }

  async acquire(req: RateAcquire): Promise<RateVerdict> {
    const verdict = await this.acquireShared(req);
    const inRedis = verdict !== null;
    const decided = verdict ?? this.local.acquireNow(req);
    if (decided.admitted) this.held.set(req.lease, { subject: req.subject, slot: req.limits.concurrency !== null, inRedis });
    return decided;
  }

  async release(rel: RateRelease): Promise<void> {
    const held = this.held.get(rel.lease);
    if (!held) return;
    this.held.delete(rel.lease);
    if (!held.inRedis) return this.local.release(rel);
    const client = this.opts.link.client;
    if (!client) return;
    const start = this.opts.keyStart(rel.subject);
    const { tokens } = rel;
    const args = [held.slot ? rel.lease : "", tokens?.delta ?? 0, tokens ? tokens.windowEndsAt - rel.now + WINDOW_GRACE_MS : 0];
    // a release lost to an outage corrects itself: the slot expires with its lease, the tokens with their window
    await within(runScript(client, SCRIPTS.release, [`${start}slots`, `${start}t:${tokens?.window ?? 0}`], args), ANSWER_WITHIN_MS, null);
  }

  async close(): Promise<void> {
    clearInterval(this.renewal);
  }

  /** the shared verdict; null when Redis could not give one */
  private async acquireShared(req: RateAcquire): Promise<RateVerdict | null> {
    const client = this.opts.link.client;
    const start = this.opts.keyStart(req.subject);
    const { rpm, tpm, concurrency } = req.limits;
    const args = [
      rpm ?? -1,
      tpm ?? -1,
      concurrency ?? -1,
      req.tokens,
      req.now,
      req.windowEndsAt - req.now + WINDOW_GRACE_MS,
      req.leaseExpiresAt,
      req.lease,
      req.leaseExpiresAt - req.now,
    ];
    const keys = [`${start}r:${req.window}`, `${start}t:${req.window}`, `${start}slots`];
    const reply = client ? await within(runScript(client, SCRIPTS.acquire, keys, args), ANSWER_WITHIN_MS, null) : null;
    if (!Array.isArray(reply)) {
      this.countAlone();
      return null;
    }
    if (this.alone) this.opts.logger.info("redis reachable again: rate limits are shared again", {});
    this.alone = false;
    const [admitted, requests, tokens, inFlight] = reply.map(Number) as [number, number, number, number];
    return { admitted: admitted === 1, used: { requests, tokens, inFlight } };
  }

  private countAlone(): void {
    if (!this.alone) this.opts.logger.warn("redis unreachable: rate limits count on this instance alone until it is back", {});
    this.alone = true;
  }

  private async renew(): Promise<void> {
    const client = this.opts.link.client;
    if (!client) return;
    const expiresAt = this.opts.clock() + this.opts.leaseMs;
    const renewals: Array<Promise<unknown>> = [];
    for (const [lease, held] of this.held) {
      if (!held.slot || !held.inRedis) continue;
      const slots = `${this.opts.keyStart(held.subject)}slots`;
      // XX: a slot already released (or expired and pruned) is not brought back
      renewals.push(client.send("ZADD", [slots, "XX", String(expiresAt), lease]), client.send("PEXPIRE", [slots, String(this.opts.leaseMs)]));
    }
    await Promise.all(renewals).catch(() => {});
  }
}
