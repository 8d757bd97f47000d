import { errorCode, unreachableReason } from './unreachable-reason';

describe('unreachableReason', () => {
  it.each([
    ['ENOTFOUND', 'DNS failure'],
    ['EAI_AGAIN', 'DNS failure'],
    ['ECONNREFUSED', 'connection refused'],
    ['ETIMEDOUT', 'timeout'],
    ['UND_ERR_CONNECT_TIMEOUT', 'timeout'],
    ['UND_ERR_HEADERS_TIMEOUT', 'timeout'],
    ['UND_ERR_BODY_TIMEOUT', 'timeout'],
    ['CERT_HAS_EXPIRED', 'TLS failure'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'TLS failure'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'TLS failure'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'TLS failure'],
    ['ERR_TLS_HANDSHAKE_TIMEOUT', 'TLS failure'],
    ['CRL_HAS_EXPIRED', 'TLS failure'],
    ['INVALID_CA', 'TLS failure'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'TLS failure'],
    ['EPROTO', 'TLS failure'],
    ['ECONNRESET', 'connection reset'],
    ['UND_ERR_SOCKET', 'connection reset'],
    ['EHOSTUNREACH', 'network unreachable'],
    ['ENETUNREACH', 'network unreachable'],
  ])('%s is a %s', (code, reason) => {
    expect(unreachableReason(code)).toBe(reason);
  });

  it.each(['UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'ERR_INVALID_URL', 'EACCES', 'toString', ''])(
    '%p is no reason to call the register unreachable',
    (code) => {
      expect(unreachableReason(code)).toBeNull();
    },
  );
});

describe('errorCode', () => {
  it('finds the code on the error, in the first error of an AggregateError, or down the causes', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    expect(errorCode(refused)).toBe('ECONNREFUSED');
    expect(errorCode(new AggregateError([refused, new Error('other')]))).toBe('ECONNREFUSED');
    expect(errorCode(new TypeError('fetch failed', { cause: new Error('wrapped', { cause: refused }) }))).toBe('ECONNREFUSED');
  });

  it('is undefined when there is none', () => {
    expect([errorCode(new Error('plain')), errorCode('ECONNREFUSED'), errorCode(null)]).toEqual([undefined, undefined, undefined]);
  });
});
