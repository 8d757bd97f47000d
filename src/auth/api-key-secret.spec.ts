import { createHash } from 'node:crypto';
import { displayPrefix, generateApiKey, hashApiKey, keyModeOf, readApiKey } from './api-key-secret';

describe('generateApiKey', () => {
  it('starts with the lvs_ prefix', () => {
    expect(generateApiKey().startsWith('lvs_')).toBe(true);
  });

  it('is lvs_ plus 43 base64url characters (256 bits, no padding)', () => {
    const key = generateApiKey();
    expect(key.length).toBe(47);
    expect(key).toMatch(/^lvs_[A-Za-z0-9_-]{43}$/);
  });

  it('makes 1000 keys that are all distinct and all well formed', () => {
    const keys = Array.from({ length: 1000 }, () => generateApiKey());
    expect(new Set(keys).size).toBe(1000);
    expect(keys.filter((key) => !/^lvs_[A-Za-z0-9_-]{43}$/.test(key))).toEqual([]);
  });

  it('never uses the non-URL-safe base64 characters +, / or =', () => {
    const joined = Array.from({ length: 200 }, () => generateApiKey()).join('');
    expect(/[+/=]/.test(joined)).toBe(false);
  });
});

describe('hashApiKey', () => {
  const KEY = 'lvs_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

  it('is 64 lower-case hex characters', () => {
    expect(hashApiKey(KEY)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is deterministic', () => {
    expect(hashApiKey(KEY)).toBe(hashApiKey(KEY));
  });

  it('equals the SHA-256 hex digest of the UTF-8 key', () => {
    expect(hashApiKey(KEY)).toBe(createHash('sha256').update(KEY, 'utf8').digest('hex'));
  });

  it('hashes the empty string to the known SHA-256 of nothing', () => {
    expect(hashApiKey('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('hashes "abc" to the known SHA-256 test vector', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('differs for keys that differ in the last character only', () => {
    expect(hashApiKey(`${KEY.slice(0, -1)}H`)).not.toBe(hashApiKey(KEY));
  });

  it('differs for keys that differ in case only', () => {
    expect(hashApiKey(KEY.toLowerCase())).not.toBe(hashApiKey(KEY));
  });

  it('does not contain the key', () => {
    expect(hashApiKey(KEY).includes(KEY)).toBe(false);
  });
});

describe('displayPrefix', () => {
  it('keeps lvs_ and the next 6 characters', () => {
    expect(displayPrefix('lvs_abcdefghijklmnop')).toBe('lvs_abcdef');
  });

  it('is 10 characters of a generated key, and its start', () => {
    const key = generateApiKey();
    expect(displayPrefix(key)).toBe(key.slice(0, 10));
    expect(displayPrefix(key).length).toBe(10);
  });

  it('returns a short key whole', () => {
    expect(displayPrefix('lvs_ab')).toBe('lvs_ab');
  });
});

describe('readApiKey', () => {
  it('reads X-API-Key', () => {
    expect(readApiKey({ 'x-api-key': 'lvs_key1' })).toBe('lvs_key1');
  });

  it('trims white space around X-API-Key', () => {
    expect(readApiKey({ 'x-api-key': '  lvs_key1 \t' })).toBe('lvs_key1');
  });

  it('reads Authorization: Bearer KEY', () => {
    expect(readApiKey({ authorization: 'Bearer lvs_key2' })).toBe('lvs_key2');
  });

  it.each(['bearer', 'BEARER', 'BeArEr'])('accepts the scheme written %s', (scheme) => {
    expect(readApiKey({ authorization: `${scheme} lvs_key2` })).toBe('lvs_key2');
  });

  it('accepts several spaces after Bearer and trailing white space', () => {
    expect(readApiKey({ authorization: 'Bearer    lvs_key2   ' })).toBe('lvs_key2');
  });

  it('ignores Authorization: Basic', () => {
    expect(readApiKey({ authorization: 'Basic dXNlcjpwYXNz' })).toBeNull();
  });

  it('ignores a Bearer header with no token', () => {
    expect(readApiKey({ authorization: 'Bearer ' })).toBeNull();
  });

  it('ignores a bare "Bearer"', () => {
    expect(readApiKey({ authorization: 'Bearer' })).toBeNull();
  });

  it('ignores a Bearer header with two tokens', () => {
    expect(readApiKey({ authorization: 'Bearer lvs_a lvs_b' })).toBeNull();
  });

  it('ignores a token without any scheme', () => {
    expect(readApiKey({ authorization: 'lvs_key2' })).toBeNull();
  });

  it('ignores "BearerKEY" with no space after the scheme', () => {
    expect(readApiKey({ authorization: 'Bearerlvs_key2' })).toBeNull();
  });

  it('returns null with no headers', () => {
    expect(readApiKey({})).toBeNull();
  });

  it('returns null for an empty X-API-Key', () => {
    expect(readApiKey({ 'x-api-key': '' })).toBeNull();
  });

  it('returns null for an X-API-Key of white space only', () => {
    expect(readApiKey({ 'x-api-key': '   ' })).toBeNull();
  });

  it('returns null for an empty Authorization header', () => {
    expect(readApiKey({ authorization: '' })).toBeNull();
  });

  it('returns null for an array-valued X-API-Key (header sent twice)', () => {
    expect(readApiKey({ 'x-api-key': ['lvs_a', 'lvs_b'] })).toBeNull();
  });

  it('returns null for an array-valued Authorization header', () => {
    expect(readApiKey({ authorization: ['Bearer lvs_a', 'Bearer lvs_b'] })).toBeNull();
  });

  it('lets X-API-Key win over Authorization', () => {
    expect(readApiKey({ 'x-api-key': 'lvs_direct', authorization: 'Bearer lvs_bearer' })).toBe('lvs_direct');
  });

  it('falls back to Authorization when X-API-Key is empty', () => {
    expect(readApiKey({ 'x-api-key': '', authorization: 'Bearer lvs_bearer' })).toBe('lvs_bearer');
  });
});

describe('test keys', () => {
  it('are lvs_test_ plus 43 base64url characters', () => {
    expect(generateApiKey('test')).toMatch(/^lvs_test_[A-Za-z0-9_-]{43}$/);
  });

  it('are told from live keys by their prefix', () => {
    expect(keyModeOf(generateApiKey('test'))).toBe('test');
    expect(keyModeOf('lvs_abcdefghijklmnop')).toBe('live');
    expect(keyModeOf('lvs_tes_abcdefghijkl')).toBe('live');
  });

  it('show lvs_test_ and the next 6 characters', () => {
    expect(displayPrefix('lvs_test_abcdefghijklmnop')).toBe('lvs_test_abcdef');
  });
});
