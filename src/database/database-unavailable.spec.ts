import { isDatabaseUnavailable } from './database-unavailable';

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
