/**
 * The Lua scripts of the Redis rate counters. Redis runs a script as one step, so a check and
 * its counting can never interleave with another instance's.
 */

/**
 * KEYS: requests of the window, tokens of the window, slots in flight (a sorted set: lease → expiry).
 * ARGV: rpm, tpm, concurrency (-1: none, not counted), tokens, now, window ttl ms, lease expiry, lease, lease ttl ms.
 * Returns {admitted 0|1, requests, tokens, in flight} as they were before this request.
 */
export const ACQUIRE = `
local rpm, tpm, concurrency = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local tokens, now = tonumber(ARGV[4]), tonumber(ARGV[5])
local requests, used, inflight = 0, 0, 0
if rpm >= 0 then requests = tonumber(redis.call('GET', KEYS[1]) or '0') end
if tpm >= 0 then used = tonumber(redis.call('GET', KEYS[2]) or '0') end
if concurrency >= 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
  inflight = redis.call('ZCARD', KEYS[3])
end
if (rpm >= 0 and requests + 1 > rpm) or (tpm >= 0 and used + tokens > tpm) or (concurrency >= 0 and inflight + 1 > concurrency) then
  return {0, requests, used, inflight}
end
if rpm >= 0 then
  redis.call('INCR', KEYS[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
end
if tpm >= 0 then
  redis.call('INCRBY', KEYS[2], tokens)
  redis.call('PEXPIRE', KEYS[2], ARGV[6])
end
if concurrency >= 0 then
  redis.call('ZADD', KEYS[3], ARGV[7], ARGV[8])
  redis.call('PEXPIRE', KEYS[3], ARGV[9])
end
return {1, requests, used, inflight}
`;

/**
 * KEYS: slots in flight, tokens of a window. ARGV: lease ('' when it held no slot), token delta, window ttl ms.
 * The count never goes below zero.
 */
export const RELEASE = `
if ARGV[1] ~= '' then redis.call('ZREM', KEYS[1], ARGV[1]) end
local delta = tonumber(ARGV[2])
if delta ~= 0 then
  local left = redis.call('INCRBY', KEYS[2], delta)
  if left < 0 then redis.call('SET', KEYS[2], 0) end
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
end
return 1
`;
