import { isDatabaseUnavailable, isRedisUnavailable, unavailableDependency } from './dependency-unavailable';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND'])('is true for the network error %s', (code) => {
    expect(isDatabaseUnavailable(withCode(code))).toBe(true);
  });

  it.each([
    ['08006', 'connection failure'],
    ['08001', 'unable to establish a connection'],
    ['57P01', 'admin shutdown'],
    ['57P03', 'cannot connect now (starting up)'],
    ['57014', 'statement timeout'],
    ['53300', 'too many connections'],
  ])('is true for SQLSTATE %s (%s)', (code) => {
    expect(isDatabaseUnavailable(withCode(code))).toBe(true);
  });

  it.each([
    'Connection terminated unexpectedly',
    'Connection terminated due to connection timeout',
    'timeout exceeded when trying to connect',
    'Query read timeout',
  ])('is true for the node-postgres message "%s"', (message) => {
    expect(isDatabaseUnavailable(new Error(message))).toBe(true);
  });

  it('looks into the driver error TypeORM wraps', () => {
    const wrapped = Object.assign(new Error('Query failed'), { driverError: withCode('ECONNRESET') });
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
  });

  it.each([
    ['23505', 'unique violation'],
    ['23514', 'check violation'],
    ['42P01', 'undefined table'],
    ['22P02', 'invalid text representation'],
  ])('is false for SQLSTATE %s (%s), a fault of ours', (code) => {
    expect(isDatabaseUnavailable(withCode(code))).toBe(false);
  });

  it('is false for a wrapped constraint violation', () => {
    const wrapped = Object.assign(new Error('Query failed'), { driverError: withCode('23505') });
    expect(isDatabaseUnavailable(wrapped)).toBe(false);
  });

  it.each([null, undefined, 'ECONNREFUSED', 42])('is false for the non-error %p', (value) => {
    expect(isDatabaseUnavailable(value)).toBe(false);
  });

  it('is false for an ordinary error', () => {
    expect(isDatabaseUnavailable(new TypeError('Cannot read properties of undefined'))).toBe(false);
  });
});

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

describe('unavailableDependency', () => {
  it('names the database for a pool or server that did not answer, wrapped by TypeORM or not', () => {
    expect(unavailableDependency(new Error('timeout exceeded when trying to connect'))).toBe('Database');
    expect(unavailableDependency(Object.assign(new Error('Query failed'), { driverError: Object.assign(new Error('canceled'), { code: '57014' }) }))).toBe(
      'Database',
    );
  });

  it('names Redis for a command that timed out, a closed connection or a cluster mid-failover', () => {
    expect(unavailableDependency(new Error('Command timed out'))).toBe('Redis');
    expect(unavailableDependency(new Error('Connection is closed.'))).toBe('Redis');
    expect(unavailableDependency(new Error('MOVED 513 127.0.0.1:7001'))).toBe('Redis');
  });

  it('names nothing for any other error, which stays an internal one', () => {
    expect(unavailableDependency(new Error('boom'))).toBeUndefined();
    expect(unavailableDependency(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBeUndefined();
    expect(unavailableDependency(undefined)).toBeUndefined();
  });
});
