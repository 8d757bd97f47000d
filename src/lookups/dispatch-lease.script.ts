import { redisScript } from '../redis/redis-script';

/** Takes the lease for ARGV[1], or renews it when ARGV[1] holds it; 1 when the caller holds it now. KEYS: lease. */
export const holdDispatchLease = redisScript<[lease: string], [holder: string, leaseMs: number], 0 | 1>({
  name: 'holdDispatchLease',
  numberOfKeys: 1,
  lua: `
local holder = redis.call('GET', KEYS[1])
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`,
});

/** Gives the lease up when ARGV[1] holds it. KEYS: lease. */
export const releaseDispatchLease = redisScript<[lease: string], [holder: string], 0 | 1>({
  name: 'releaseDispatchLease',
  numberOfKeys: 1,
  lua: `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`,
});
