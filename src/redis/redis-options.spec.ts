import { blockingRedisOptions, failFastRedisOptions, reconnectDelayMs } from './redis-options';

describe('reconnectDelayMs', () => {
  it('grows by 100 ms per attempt up to 500 ms, so a returning Redis is found within 2 s', () => {
    expect([1, 2, 3, 4, 5, 6, 50, 10_000].map(reconnectDelayMs)).toEqual([100, 200, 300, 400, 500, 500, 500, 500]);
  });
});

describe('Redis client options', () => {
  it('fail fast for clients that answer requests: timeouts, a silent connection dropped, no offline queue', () => {
    expect(failFastRedisOptions(1000)).toEqual({
      connectTimeout: 1000,
      commandTimeout: 1000,
      socketTimeout: 950,
      autoResendUnfulfilledCommands: false,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      retryStrategy: reconnectDelayMs,
    });
  });

  it('keep blocking clients waiting: no command timeout, offline queue left on', () => {
    const options = blockingRedisOptions(1000);
    expect(options).toEqual({ connectTimeout: 1000, retryStrategy: reconnectDelayMs });
  });
});
