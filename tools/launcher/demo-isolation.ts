import { Client } from 'pg';

/**
 * The demo's database and Redis prefix, beside the configured ones: its sandbox answers, invented
 * licences, demo key and watched numbers then never meet `npm start`'s real register and real users.
 */
export interface DemoStores {
  databaseUrl: string;
  redisPrefix: string;
}

const SUFFIX = 'demo';
/** REDIS_PREFIX's own bound: the demo's prefix must pass the same check in the API and the worker. */
const REDIS_PREFIX_MAX_LENGTH = 64;

export function demoStores(databaseUrl: string, redisPrefix: string): DemoStores {
  const url = new URL(databaseUrl);
  url.pathname = `${url.pathname}_${SUFFIX}`;
  return {
    databaseUrl: url.toString(),
    redisPrefix: `${redisPrefix.slice(0, REDIS_PREFIX_MAX_LENGTH - SUFFIX.length - 1)}-${SUFFIX}`,
  };
}

/** The database's name in a PostgreSQL URL, for the operator. */
export function databaseName(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
}

/**
 * Drops the demo's database, so that each demo starts empty: an earlier demo's users would otherwise keep their
 * numbers watched, re-checked against this demo's sandbox, with webhooks to a receiver that is gone.
 */
export async function dropDemoDatabase(demoDatabaseUrl: string): Promise<void> {
  const url = new URL(demoDatabaseUrl);
  const name = databaseName(demoDatabaseUrl);
  if (!name.endsWith(`_${SUFFIX}`)) throw new Error(`Not a demo database: ${name}`);
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    // FORCE: a demo stopped with SIGKILL may leave sessions behind. The name passed the config schema's check.
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
