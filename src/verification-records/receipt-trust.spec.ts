import { servedJwks, trustOf } from './receipt-trust';

const OURS = 'https://lvs.example.com';
const OTHER = 'https://other.example.com/lvs';

describe('trustOf', () => {
  it('refuses to check anything when the auditor named neither keys nor an issuer, whatever the receipt says', () => {
    expect(trustOf({ issuers: [], test: false }, OURS)).toEqual({
      refused: "name what you trust: --issuer URL (the service's address), or --jwks FILE|URL with it",
    });
  });

  it("fetches a named issuer's own key set, the live or the test one", () => {
    expect(trustOf({ issuers: [OURS], test: false }, OURS)).toEqual({ jwks: `${OURS}/.well-known/jwks.json`, issuers: [OURS] });
    expect(trustOf({ issuers: [OURS], test: true }, OURS)).toEqual({ jwks: `${OURS}/.well-known/jwks-test.json`, issuers: [OURS] });
  });

  it("lets the receipt's unverified iss pick only among the trusted issuers; a foreign one gets the first issuer's keys", () => {
    expect(trustOf({ issuers: [OURS, OTHER], test: false }, OTHER)).toEqual({ jwks: servedJwks(OTHER, false), issuers: [OURS, OTHER] });
    expect(trustOf({ issuers: [OURS, OTHER], test: false }, 'https://forger.example')).toEqual({
      jwks: servedJwks(OURS, false),
      issuers: [OURS, OTHER],
    });
  });

  it("takes a key set's URL at a service's /.well-known as naming that issuer, and a file only with --issuer", () => {
    expect(trustOf({ jwks: `${OTHER}/.well-known/jwks.json`, issuers: [], test: false }, 'https://forger.example')).toEqual({
      jwks: `${OTHER}/.well-known/jwks.json`,
      issuers: [OTHER],
    });
    expect(trustOf({ jwks: `${OURS}/.well-known/jwks-test.json`, issuers: [], test: true }, null)).toMatchObject({ issuers: [OURS] });
    expect(trustOf({ jwks: '/tmp/jwks.json', issuers: [], test: false }, OURS)).toEqual({
      refused: 'a key set from a file needs --issuer URL: the address of the service it belongs to',
    });
    expect(trustOf({ jwks: '/tmp/jwks.json', issuers: [OURS], test: false }, null)).toEqual({ jwks: '/tmp/jwks.json', issuers: [OURS] });
    expect(trustOf({ jwks: 'https://keys.example/set.json', issuers: [], test: false }, OURS)).toMatchObject({ refused: expect.any(String) });
  });
});
