import { parseRedisNodes, redisTopology } from './redis-topology';

const standalone = { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_SENTINELS: '', REDIS_SENTINEL_NAME: 'mymaster', REDIS_CLUSTER_NODES: '' };

describe('redisTopology', () => {
  it('is REDIS_URL when neither sentinels nor cluster nodes are set', () => {
    expect(redisTopology(standalone)).toEqual({ kind: 'standalone', url: 'redis://127.0.0.1:6379' });
  });

  it('prefers sentinels over REDIS_URL, with the primary name and the URL credentials', () => {
    expect(
      redisTopology({ ...standalone, REDIS_URL: 'rediss://app:s%40cret@ignored:6380', REDIS_SENTINELS: 'a:26379,b:26380', REDIS_SENTINEL_NAME: 'lvs' }),
    ).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: 'a', port: 26379 },
        { host: 'b', port: 26380 },
      ],
      name: 'lvs',
      auth: { username: 'app', password: 's@cret', tls: {} },
    });
  });

  it('prefers cluster nodes over sentinels', () => {
    expect(redisTopology({ ...standalone, REDIS_SENTINELS: 'a:26379', REDIS_CLUSTER_NODES: '10.0.0.1:7000' })).toEqual({
      kind: 'cluster',
      nodes: [{ host: '10.0.0.1', port: 7000 }],
      auth: {},
    });
  });
});

describe('parseRedisNodes', () => {
  it('splits each entry at its last colon', () => {
    expect(parseRedisNodes('redis-0.redis:7000,127.0.0.1:7001')).toEqual([
      { host: 'redis-0.redis', port: 7000 },
      { host: '127.0.0.1', port: 7001 },
    ]);
  });
});
