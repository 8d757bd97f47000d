import { redisScript } from './redis-script';

/** Compare-and-set: writes ARGV[2] only if the key still holds ARGV[1] ('' for missing). 1 when written. */
export const compareAndSet = redisScript<[key: string], [expected: string, next: string], 0 | 1>({
  name: 'compareAndSet',
  numberOfKeys: 1,
  lua: `
if (redis.call('GET', KEYS[1]) or '') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1
`,
});
