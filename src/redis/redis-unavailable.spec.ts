import { isRedisUnavailable } from './redis-unavailable';

describe('isRedisUnavailable', () => {
  it.each([
    ['a command timeout', new Error('Command timed out')],
    ['a closed connection', new Error('Connection is closed.')],
    ['no offline queue while reconnecting', new Error("Stream isn't writeable and enableOfflineQueue options is false")],
    ['retries exhausted', Object.assign(new Error('Reached the max retries per request limit (which is 1).'), { name: 'MaxRetriesPerRequestError' })],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' })],
    ['a connect timeout', new Error('connect ETIMEDOUT')],
    ['a cluster failover past the redirection limit', new Error('Too many Cluster redirections. Last error: ReplyError: MOVED 513 127.0.0.1:38403')],
    ['a slot map that cannot be refreshed', new Error('Failed to refresh slots cache.')],
    ['a cluster that is down', new Error('CLUSTERDOWN The cluster is down')],
    ['a redirection handed back during a failover', new Error('MOVED 513 127.0.0.1:46525')],
    ['a migrating slot handed back', new Error('ASK 513 127.0.0.1:46525')],
  ])('is true for %s', (_name, error) => {
    expect(isRedisUnavailable(error)).toBe(true);
  });

  it.each([
    ['a script error', new Error('ERR Error running script')],
    ['a wrong type', new Error('WRONGTYPE Operation against a key holding the wrong kind of value')],
    ['a message that only mentions a redirection', new Error('ERR unknown command MOVED')],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['not an error', 'Command timed out'],
    ['null', null],
  ])('is false for %s', (_name, error) => {
    expect(isRedisUnavailable(error)).toBe(false);
  });
});
