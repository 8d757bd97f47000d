import type Redis from 'ioredis';
import type { Client } from 'pg';

/** Every key under the prefix and every value it holds, whatever its type, as one text to search. */
export async function redisText(redis: Redis, prefix: string): Promise<string> {
  const parts: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    for (const key of keys) parts.push(key, JSON.stringify(await valueOf(redis, key)));
    cursor = next;
  } while (cursor !== '0');
  return parts.join('\n');
}

async function valueOf(redis: Redis, key: string): Promise<unknown> {
  switch (await redis.type(key)) {
    case 'string':
      return redis.get(key);
    case 'hash':
      return redis.hgetall(key);
    case 'set':
      return redis.smembers(key);
    case 'zset':
      return redis.zrange(key, 0, -1, 'WITHSCORES');
    case 'list':
      return redis.lrange(key, 0, -1);
    case 'stream':
      return redis.xrange(key, '-', '+');
    default:
      return null;
  }
}

/** Every row of every table of the database, each as PostgreSQL's text of the row. */
export async function databaseText(db: Client): Promise<string> {
  const { rows: tables } = await db.query<{ name: string }>(
    `SELECT quote_ident(table_name) AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const { rows } = await db.query<{ row: string }>(`SELECT t::text AS row FROM ${name} t`);
    parts.push(...rows.map((row) => `${name} ${row.row}`));
  }
  return parts.join('\n');
}
