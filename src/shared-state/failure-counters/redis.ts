import type { Logger } from "../../logger";
import { type RedisLink, within } from "../redis-link";
import { MemoryFailureCounters } from "./memory";
import type { FailureCount, FailureCounters, FailureRecord } from "./types";

/** A count Redis does not answer within this is kept on this instance instead. */
const ANSWER_WITHIN_MS = 1_000;

/**
 * KEYS[1] the subject's count; ARGV: window ms, hold-at count, hold ms. INCR and the expiry in
 * one step, so concurrent failures on several instances are all counted. Returns the count
 * and its remaining lifetime in ms.
 */
const ADD = `
local n = redis.call('INCR', KEYS[1])
if n >= tonumber(ARGV[2]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
elseif n == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return {n, redis.call('PTTL', KEYS[1])}
`;

export type RedisFailureOptions = { link: RedisLink; keyOf: (subject: string) => string; logger: Logger };

/**
 * Counts every instance shares. While Redis is unreachable the instance counts on its own
 * (limits then hold per instance) and says so once.
 */
export class RedisFailureCounters implements FailureCounters {
  private readonly local = new MemoryFailureCounters();
  private alone = false;

  constructor(private readonly opts: RedisFailureOptions) {}

  async get(subject: string, now: number): Promise<FailureCount> {
    const client = this.opts.link.client;
    const key = this.opts.keyOf(subject);
    const reply = client ? await within(Promise.all([client.send("GET", [key]), client.send("PTTL", [key])]), ANSWER_WITHIN_MS, null) : null;
    if (!reply) return this.merge(this.local.getNow(subject, now));
    const [count, ttl] = [Number(reply[0] ?? 0), Number(reply[1])];
    const shared = count > 0 && ttl > 0 ? { count, resetsAt: now + ttl } : { count: 0, resetsAt: 0 };
    return this.merge(shared, this.local.getNow(subject, now));
  }

  async add(record: FailureRecord): Promise<FailureCount> {
    const client = this.opts.link.client;
    const args = [String(record.windowMs), String(record.holdAt), String(record.holdMs)];
    const reply = client ? await within(client.send("EVAL", [ADD, "1", this.opts.keyOf(record.subject), ...args]), ANSWER_WITHIN_MS, null) : null;
    if (!Array.isArray(reply)) {
      if (!this.alone) this.opts.logger.warn("redis unreachable: sign-in failures count on this instance alone until it is back", {});
      this.alone = true;
      return this.local.addNow(record);
    }
    this.alone = false;
    const [count, ttl] = reply.map(Number) as [number, number];
    return { count, resetsAt: record.now + Math.max(ttl, 0) };
  }

  async clear(subject: string): Promise<void> {
    await this.local.clear(subject);
    const client = this.opts.link.client;
    if (client) await within(client.send("DEL", [this.opts.keyOf(subject)]), ANSWER_WITHIN_MS, null);
  }

  /** what Redis counted and what this instance counted while it was away: the larger */
  private merge(...counts: FailureCount[]): FailureCount {
    return counts.reduce((a, b) => (b.count > a.count ? b : a), { count: 0, resetsAt: 0 });
  }
}
