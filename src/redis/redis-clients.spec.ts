import { Cluster } from 'ioredis';
import { blockingConnection, failFastConnection } from './redis-clients';

const settings = {
  REDIS_URL: 'redis://:secret@127.0.0.1:6379',
  REDIS_SENTINELS: '',
  REDIS_SENTINEL_NAME: 'mymaster',
  REDIS_CLUSTER_NODES: '',
  DEPENDENCY_TIMEOUT_MS: 800,
};

describe('BullMQ connections', () => {
  it('are options for the server of REDIS_URL, failing fast for queues and blocking for workers', () => {
    expect(failFastConnection(settings)).toMatchObject({
      url: settings.REDIS_URL,
      commandTimeout: 800,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
    });
    const blocking = blockingConnection(settings);
    expect(blocking).toMatchObject({ url: settings.REDIS_URL, connectTimeout: 800, maxRetriesPerRequest: null });
    expect(blocking).not.toHaveProperty('commandTimeout');
  });

  it('are sentinel options with the primary name and REDIS_URL password on Sentinel', () => {
    const connection = failFastConnection({ ...settings, REDIS_SENTINELS: '127.0.0.1:26379,127.0.0.1:26380', REDIS_SENTINEL_NAME: 'lvs' });
    expect(connection).toMatchObject({
      sentinels: [
        { host: '127.0.0.1', port: 26379 },
        { host: '127.0.0.1', port: 26380 },
      ],
      name: 'lvs',
      password: 'secret',
      commandTimeout: 800,
    });
    expect(connection).not.toHaveProperty('url');
  });

  it('is a Cluster client that has not connected on a cluster: BullMQ connects it, or duplicates it for a worker', () => {
    const connection = blockingConnection({ ...settings, REDIS_CLUSTER_NODES: '127.0.0.1:7000,127.0.0.1:7001' });
    expect(connection).toBeInstanceOf(Cluster);
    const cluster = connection as Cluster;
    expect(cluster.status).toBe('wait');
    expect(cluster.options.redisOptions).toMatchObject({ password: 'secret', maxRetriesPerRequest: null });
    expect(cluster.options.lazyConnect).toBe(true);
  });
});
