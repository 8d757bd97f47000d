import { bullJobOf, namer } from './user-deletion-names';

describe('namer', () => {
  const naming = namer(['0b661384-d7d9-483b-88ba-467ac6614a66', 'abc123hash']);

  it('finds a name anywhere in a key, a JSON member or a value', () => {
    expect(naming('lvs:idempotency:0b661384-d7d9-483b-88ba-467ac6614a66:k1')).toBe(true);
    expect(naming('{"userId":"0b661384-d7d9-483b-88ba-467ac6614a66","chargeId":"7"}')).toBe(true);
    expect(naming('session:{"keyHash":"abc123hash"}')).toBe(true);
  });

  it('finds nothing in text naming neither', () => {
    expect(naming('{"userId":"0b661384-d7d9-483b-88ba-467ac6614a67"}')).toBe(false);
    expect(naming('')).toBe(false);
    expect(namer([])('anything')).toBe(false);
  });
});

describe('bullJobOf', () => {
  const job = { name: 'lookup', data: '{"testUserId":"u"}', timestamp: '1764370000000' };

  it('reads the queue and the job id of a job hash under the prefix', () => {
    expect(bullJobOf('lvs:bull:register-lookup:5f0c', 'lvs:bull', job)).toEqual({ queue: 'register-lookup', jobId: '5f0c' });
    expect(bullJobOf('lvs:bull:watch-recheck:repeat:7', 'lvs:bull', job)).toEqual({ queue: 'watch-recheck', jobId: 'repeat:7' });
  });

  it('is null for a hash that is not a job: outside the prefix, a queue key, or without data and timestamp', () => {
    expect(bullJobOf('lvs:idempotency:u:k', 'lvs:bull', job)).toBeNull();
    expect(bullJobOf('lvs:bullish:q:1', 'lvs:bull', job)).toBeNull();
    expect(bullJobOf('lvs:bull:register-lookup', 'lvs:bull', job)).toBeNull();
    expect(bullJobOf('lvs:bull:register-lookup:meta', 'lvs:bull', { opts: '{}' })).toBeNull();
    expect(bullJobOf('lvs:bull:register-lookup:1', 'lvs:bull', { data: '{}' })).toBeNull();
  });
});
