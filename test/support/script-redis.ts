import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { defineScripts } from '../../src/redis/redis-script';
import { deleteKeysWithPrefix } from './redis-keys';
import { scriptFiles } from './redis-script-files';
import { TEST_REDIS_URL } from './test-run';

/** Two connections with every script defined, and the keys of one spec file. */
export interface ScriptRedis {
  client: Redis;
  /** a second connection, for calls that race the first's */
  other: Redis;
  /** a key under the file's own prefix */
  key(...parts: string[]): string;
}

/**
 * The machine's Redis for one file of the redis-scripts project, as the service's store client has it (every
 * script defined). Its keys live under a prefix of their own, deleted after each test (SCAN, never FLUSHALL:
 * Redis is shared), so that every test starts from no keys.
 */
export function scriptRedis(): ScriptRedis {
  const prefix = `lvs_scripts_${process.pid}_${randomUUID()}`;
  const scripts = scriptFiles().map(({ script }) => script);
  const client = defineScripts(new Redis(TEST_REDIS_URL), scripts);
  const other = defineScripts(new Redis(TEST_REDIS_URL), scripts);
  afterEach(() => deleteKeysWithPrefix(client, prefix));
  afterAll(async () => {
    await Promise.all([client.quit(), other.quit()]);
  });
  return { client, other, key: (...parts) => `${prefix}:${parts.join(':')}` };
}

/** Redis's clock in milliseconds, which the scripts that read TIME measure by. */
export async function redisTimeMs(redis: Redis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}
