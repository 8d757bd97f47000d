import { redisScript } from '../redis/redis-script';

/**
 * Marks numbers charged: KEYS, the charged markers of each charge (a hash per user and period). ARGV: the TTL,
 * then each charge's number. Every key written gets the TTL again.
 */
export const markCharged = redisScript<string[], [ttlSeconds: number, ...licenceNumbers: string[]], null>({
  name: 'markCharged',
  numberOfKeys: null,
  lua: `
for i = 1, #KEYS do
  redis.call('HSET', KEYS[i], ARGV[i + 1], '1')
  redis.call('EXPIRE', KEYS[i], ARGV[1])
end
`,
});
