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
