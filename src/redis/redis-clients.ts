import type { ConnectionOptions } from 'bullmq';
import Redis, { Cluster, RedisOptions } from 'ioredis';
import type { AppSettings } from '../config/env.schema';
import { blockingRedisOptions, failFastRedisOptions, RedisTimeouts } from './redis-options';
import { RedisAuth, RedisNode, RedisTopology, redisTopology, RedisTopologySettings } from './redis-topology';
import type { RedisClient } from './redis-client-type';

export type RedisConnectionSettings = RedisTopologySettings & Pick<AppSettings, 'DEPENDENCY_TIMEOUT_MS'>;

/** Reads exactly the settings a Redis connection needs, from anything that holds them (AppConfig, AppSettings). */
export function redisConnectionSettings(config: { get<K extends keyof AppSettings>(name: K): AppSettings[K] }): RedisConnectionSettings {
  return {
    REDIS_URL: config.get('REDIS_URL'),
    REDIS_SENTINELS: config.get('REDIS_SENTINELS'),
    REDIS_SENTINEL_NAME: config.get('REDIS_SENTINEL_NAME'),
    REDIS_CLUSTER_NODES: config.get('REDIS_CLUSTER_NODES'),
    DEPENDENCY_TIMEOUT_MS: config.get('DEPENDENCY_TIMEOUT_MS'),
  };
}

/** ioredis options for the one server of a standalone or Sentinel topology (on Sentinel: its current primary). */
type ServerOptions = RedisTimeouts &
  RedisAuth & { url?: string; sentinels?: RedisNode[]; name?: string; sentinelRetryStrategy?: (attempt: number) => number };

function serverOptions(topology: RedisTopology, timeouts: RedisTimeouts): ServerOptions {
  if (topology.kind === 'sentinel') {
    return { sentinels: topology.sentinels, name: topology.name, ...topology.auth, ...timeouts, sentinelRetryStrategy: timeouts.retryStrategy };
  }
  return { url: topology.kind === 'standalone' ? topology.url : undefined, ...timeouts };
}

/**
 * A cluster client: the timeouts apply to each node's connection, the reconnect delays to the cluster as a whole,
 * and a command that meets a failover is retried after 100 ms (ioredis' default) within its timeout.
 */
function clusterClient(
  topology: Extract<RedisTopology, { kind: 'cluster' }>,
  timeouts: RedisTimeouts,
  extra: { lazyConnect?: boolean; enableAutoPipelining?: boolean },
): Cluster {
  const { retryStrategy, enableOfflineQueue, ...perNode } = timeouts;
  return new Cluster(topology.nodes, {
    redisOptions: { ...topology.auth, ...perNode },
    clusterRetryStrategy: retryStrategy,
    enableOfflineQueue: enableOfflineQueue ?? true,
    ...extra,
  });
}

/**
 * Our own client for keys and scripts (RedisStore): fails fast, and batches a turn's commands in one write per server.
 * Each feature's module defines its scripts on it (RedisScriptsModule.forFeature).
 */
export function createStoreClient(settings: RedisConnectionSettings): RedisClient {
  const topology = redisTopology(settings);
  const timeouts = failFastRedisOptions(settings.DEPENDENCY_TIMEOUT_MS);
  if (topology.kind === 'cluster') return clusterClient(topology, timeouts, { enableAutoPipelining: true });
  const { url, ...options } = serverOptions(topology, timeouts);
  return url === undefined ? new Redis({ ...options, enableAutoPipelining: true }) : new Redis(url, { ...options, enableAutoPipelining: true });
}

/**
 * A second connection like `client` with other options (a subscriber): ioredis' Cluster takes its startup nodes
 * first, so one duplicate() call would not fit both.
 */
export function duplicateClient(client: RedisClient, options: RedisOptions): RedisClient {
  return client instanceof Cluster
    ? client.duplicate(undefined, { enableOfflineQueue: options.enableOfflineQueue, redisOptions: { ...client.options.redisOptions, ...options } })
    : client.duplicate(options);
}

/**
 * BullMQ's connection: options for one server, or on a cluster a lazily connecting Cluster client, which
 * BullMQ's cluster support needs (it connects it when used, and duplicates it for blocking connections).
 * Queues share such a client (see RedisModule, which closes it); workers' templates never connect.
 */
function bullConnection(settings: RedisConnectionSettings, timeouts: RedisTimeouts): ConnectionOptions {
  const topology = redisTopology(settings);
  if (topology.kind === 'cluster') return clusterClient(topology, timeouts, { lazyConnect: true });
  return serverOptions(topology, timeouts);
}

/** BullMQ connection for queues that add and read jobs on behalf of requests: fails fast. */
export function failFastConnection(settings: RedisConnectionSettings): ConnectionOptions {
  return bullConnection(settings, failFastRedisOptions(settings.DEPENDENCY_TIMEOUT_MS));
}

/** The key prefix of every BullMQ queue, worker and queue-events object, beside our own keys under REDIS_PREFIX. */
export function bullPrefix(redisPrefix: string): string {
  return `${redisPrefix}:bull`;
}

/** BullMQ connection for workers and queue events, which block on Redis and must ride out outages. */
export function blockingConnection(settings: RedisConnectionSettings): ConnectionOptions {
  // BullMQ refuses a client (as opposed to options) that limits retries for blocking commands.
  return bullConnection(settings, { ...blockingRedisOptions(settings.DEPENDENCY_TIMEOUT_MS), maxRetriesPerRequest: null });
}
