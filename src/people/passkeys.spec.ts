import {
  MAX_PASSKEY_NAME,
  parseCredential,
  passkeyAuthenticationOptions,
  passkeyName,
  passkeyRegistrationOptions,
  relyingParty,
  verifiedAuthentication,
  verifiedRegistration,
} from './passkeys';

const PARTY = relyingParty('https://console.lvs.example:8443/console', 'Licence Verification console');

describe('relyingParty', () => {
  it('is the origin, and its host name alone as the id', () => {
    expect(PARTY).toEqual({ id: 'console.lvs.example', origin: 'https://console.lvs.example:8443', name: 'Licence Verification console' });
    expect(relyingParty('http://localhost:3000', 'x')).toEqual({ id: 'localhost', origin: 'http://localhost:3000', name: 'x' });
  });
});

describe('passkeyName', () => {
  it('is the typed name trimmed, its spaces made single', () => {
    expect(passkeyName('  Work   laptop ')).toBe('Work laptop');
  });

  it('refuses a blank name and one over the limit, counted in characters', () => {
    expect(passkeyName('   ')).toBeNull();
    expect(passkeyName('é'.repeat(MAX_PASSKEY_NAME))).toBe('é'.repeat(MAX_PASSKEY_NAME));
    expect(passkeyName('é'.repeat(MAX_PASSKEY_NAME + 1))).toBeNull();
  });
});

describe('parseCredential', () => {
  const sent = { id: 'abc', rawId: 'abc', type: 'public-key', response: { clientDataJSON: 'x' } };

  it('takes JSON of a public-key credential, with no extension results when none were sent', () => {
    expect(parseCredential(JSON.stringify(sent))).toEqual({ ...sent, clientExtensionResults: {} });
  });

  it('refuses anything else: not JSON, another type, an id unlike its raw id, no response', () => {
    for (const bad of ['', 'not json', 'null', '[]', JSON.stringify({ ...sent, type: 'password' }), JSON.stringify({ ...sent, rawId: 'abd' })])
      expect([bad, parseCredential(bad)]).toEqual([bad, null]);
    expect(parseCredential(JSON.stringify({ ...sent, response: null }))).toBeNull();
  });
});

describe('passkey ceremonies', () => {
  it("ask for a discoverable passkey with the person verified, the person's id as the user handle, never one they have", async () => {
    const options = await passkeyRegistrationOptions(
      PARTY,
      { userId: '6f1c2f0e-0000-4000-8000-000000000001', userName: 'olivia@acme.example', displayName: 'Olivia Owner' },
      [{ credentialId: 'AAEC', transports: ['internal'] }],
    );
    expect(options).toMatchObject({
      rp: { id: 'console.lvs.example', name: 'Licence Verification console' },
      user: { id: Buffer.from('6f1c2f0e-0000-4000-8000-000000000001').toString('base64url'), name: 'olivia@acme.example', displayName: 'Olivia Owner' },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
      excludeCredentials: [{ id: 'AAEC', type: 'public-key', transports: ['internal'] }],
    });
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('sign in without an address: no credentials named, the person verified, a new challenge each time', async () => {
    const [first, second] = [await passkeyAuthenticationOptions(PARTY), await passkeyAuthenticationOptions(PARTY)];
    expect(first).toMatchObject({ rpId: 'console.lvs.example', userVerification: 'required' });
    expect(first.allowCredentials ?? []).toEqual([]);
    expect(first.challenge).not.toBe(second.challenge);
  });

  it('prove nothing with an answer that is not a signed ceremony', async () => {
    const answer = { id: 'abc', rawId: 'abc', type: 'public-key' as const, clientExtensionResults: {} };
    const registration = { ...answer, response: { clientDataJSON: 'e30', attestationObject: 'AA' } };
    expect(await verifiedRegistration(PARTY, registration, 'challenge')).toBeNull();
    const authentication = { ...answer, response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' } };
    const passkey = { credentialId: 'abc', publicKey: new Uint8Array([1, 2, 3]), counter: 0, transports: [] };
    expect(await verifiedAuthentication(PARTY, authentication, 'challenge', passkey)).toBeNull();
  });
});
