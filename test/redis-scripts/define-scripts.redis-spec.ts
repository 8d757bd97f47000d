import Redis from 'ioredis';
import { defineScripts } from '../../src/redis/redis-script';
import { compareAndSet } from '../../src/redis/compare-and-set.script';
import { scriptFiles } from '../support/redis-script-files';
import { scriptRedis } from '../support/script-redis';
import { TEST_REDIS_URL } from '../support/test-run';

const redis = scriptRedis();
const REDIS_SCRIPTS = scriptFiles().map(({ script }) => script);

describe('defineScripts', () => {
  it('defines every script on the client, with its number of keys', () => {
    for (const { name } of REDIS_SCRIPTS) expect(typeof (redis.client as unknown as Record<string, unknown>)[name]).toBe('function');
    expect(
      REDIS_SCRIPTS.filter(({ numberOfKeys }) => numberOfKeys === null)
        .map(({ name }) => name)
        .sort(),
    ).toEqual(['lvsAdmitDatesOfBirth', 'lvsClaimIdempotencyKeys', 'lvsMarkCharged', 'lvsRecordAnswers']);
  });

  it('compiles every script on the server', async () => {
    const loaded = await Promise.all(REDIS_SCRIPTS.map(({ lua }) => redis.client.script('LOAD', lua)));
    expect(new Set(loaded).size).toBe(REDIS_SCRIPTS.length);
  });

  it('answers a clear error for a script called on a client it was never defined on', async () => {
    const bare = new Redis(TEST_REDIS_URL, { lazyConnect: true });
    try {
      expect(() => compareAndSet.run(bare, [redis.key('k')], ['', 'v'])).toThrow(
        'Redis script lvsCompareAndSet is not defined on this client (RedisScriptsModule.forFeature)',
      );
    } finally {
      bare.disconnect();
    }
  });

  it('returns the client it defined the scripts on', () => {
    const bare = new Redis(TEST_REDIS_URL, { lazyConnect: true });
    try {
      expect(defineScripts(bare, REDIS_SCRIPTS)).toBe(bare);
    } finally {
      bare.disconnect();
    }
  });
});
