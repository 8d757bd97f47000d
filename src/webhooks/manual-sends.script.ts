import { redisScript } from '../redis/redis-script';

/**
 * KEYS[1]: when the endpoint's last manual send went (clock ms). Records this one and answers 0 when the
 * interval has passed since; else answers the milliseconds left (at most the interval, whatever the clocks say).
 * ARGV: now (ms), interval (ms).
 */
export const takeManualSend = redisScript<[lastSend: string], [now: number, intervalMs: number], number>({
  name: 'takeManualSend',
  numberOfKeys: 1,
  lua: `
local last = tonumber(redis.call('GET', KEYS[1]))
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
if last and now - last < interval then return math.min(interval, interval - (now - last)) end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 0`,
});
