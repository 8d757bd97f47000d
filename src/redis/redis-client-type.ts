import type { Cluster, Redis } from 'ioredis';

/** A connection to the store, whichever topology: one server (or Sentinel's primary) or a Cluster. */
export type RedisClient = Redis | Cluster;
