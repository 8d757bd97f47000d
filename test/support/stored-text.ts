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

/** The tables a user's data goes to: a search that does not see them all would pass anything. */
const USER_TABLES = [
  'users',
  'api_keys',
  'quota_charges',
  'quota_usage',
  'batches',
  'batch_items',
  'watch_entries',
  'events',
  'webhook_endpoints',
  'webhook_deliveries',
  'webhook_attempts',
];

/**
 * Every column of every table whose text names `needle` (a user's id, a key's id or hash), as "table.column": what
 * a deletion (delete-user, the operator console's Delete) must leave empty.
 */
export async function columnsNamingIn(db: Client, needle: string): Promise<string[]> {
  const { rows: columns } = await db.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
        AND c.data_type IN ('uuid', 'text', 'character', 'character varying', 'json', 'jsonb', 'ARRAY')
      ORDER BY 1, 2`,
  );
  const missing = USER_TABLES.filter((table) => !columns.some((column) => column.table_name === table));
  if (missing.length > 0) throw new Error(`columnsNamingIn sees no ${missing.join(', ')}`);
  const naming: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    const { rows } = await db.query<{ found: boolean }>(`SELECT EXISTS (SELECT 1 FROM "${table}" WHERE strpos("${column}"::text, $1) > 0) AS found`, [
      needle,
    ]);
    if (rows[0].found) naming.push(`${table}.${column}`);
  }
  return naming;
}
