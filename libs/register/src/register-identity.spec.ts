import { PRODUCTION_REGISTER_URL } from './production-url';
import { registerIdentity } from './register-identity';

describe('registerIdentity', () => {
  it('is 12 hex digits, the same for every spelling of one origin', () => {
    const identity = registerIdentity(PRODUCTION_REGISTER_URL);
    expect(identity).toMatch(/^[0-9a-f]{12}$/);
    expect(
      ['https://SERVICES.sia.homeoffice.gov.uk/', 'https://services.sia.homeoffice.gov.uk:443', `${PRODUCTION_REGISTER_URL}/`].map(registerIdentity),
    ).toEqual([identity, identity, identity]);
  });

  it('differs between registers: another host, another port, another scheme', () => {
    const identities = [
      PRODUCTION_REGISTER_URL,
      'http://services.sia.homeoffice.gov.uk',
      'http://127.0.0.1:4010',
      'http://127.0.0.1:4011',
      'http://localhost:4010',
    ].map(registerIdentity);
    expect(new Set(identities).size).toBe(identities.length);
  });
});
