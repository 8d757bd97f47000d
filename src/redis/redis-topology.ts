import type { AppSettings } from '../config/env.schema';

export interface RedisNode {
  host: string;
  port: number;
}

/** Credentials and TLS from REDIS_URL, which also apply to sentinel primaries and cluster nodes. */
export interface RedisAuth {
  username?: string;
  password?: string;
  tls?: Record<string, never>;
}

/** Which Redis the service talks to, by precedence: a cluster, then Sentinel, then REDIS_URL. */
export type RedisTopology =
  | { kind: 'cluster'; nodes: RedisNode[]; auth: RedisAuth }
  | { kind: 'sentinel'; sentinels: RedisNode[]; name: string; auth: RedisAuth }
  | { kind: 'standalone'; url: string };

export type RedisTopologySettings = Pick<AppSettings, 'REDIS_URL' | 'REDIS_SENTINELS' | 'REDIS_SENTINEL_NAME' | 'REDIS_CLUSTER_NODES'>;

/** "host:port,host:port" (validated by the settings schema) as nodes. */
export function parseRedisNodes(list: string): RedisNode[] {
  return list.split(',').map((entry) => {
    const separator = entry.lastIndexOf(':');
    return { host: entry.slice(0, separator), port: Number(entry.slice(separator + 1)) };
  });
}

function authOf(redisUrl: string): RedisAuth {
  const url = new URL(redisUrl);
  return {
    ...(url.username !== '' && { username: decodeURIComponent(url.username) }),
    ...(url.password !== '' && { password: decodeURIComponent(url.password) }),
    ...(url.protocol === 'rediss:' && { tls: {} }),
  };
}

export function redisTopology(settings: RedisTopologySettings): RedisTopology {
  if (settings.REDIS_CLUSTER_NODES !== '') {
    return { kind: 'cluster', nodes: parseRedisNodes(settings.REDIS_CLUSTER_NODES), auth: authOf(settings.REDIS_URL) };
  }
  if (settings.REDIS_SENTINELS !== '') {
    return {
      kind: 'sentinel',
      sentinels: parseRedisNodes(settings.REDIS_SENTINELS),
      name: settings.REDIS_SENTINEL_NAME,
      auth: authOf(settings.REDIS_URL),
    };
  }
  return { kind: 'standalone', url: settings.REDIS_URL };
}
