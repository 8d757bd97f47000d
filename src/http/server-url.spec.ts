import { documentServers, serverUrl } from './server-url';

describe('serverUrl', () => {
  it('prefers the configured public address', () => {
    expect(serverUrl('https://api.example.com/licence', { protocol: 'http', host: '10.0.0.5:3000' })).toBe('https://api.example.com/licence');
  });

  it("falls back to the request's origin, with its port", () => {
    expect(serverUrl('', { protocol: 'https', host: 'partners.example.com:8443' })).toBe('https://partners.example.com:8443');
  });
});

describe('documentServers', () => {
  const request = { protocol: 'http', host: 'localhost:3000' };

  it('names production as such, for partners (not internal)', () => {
    expect(documentServers({ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://lvs.example.com' }, request)).toEqual([
      { url: 'https://lvs.example.com', description: 'Production', 'x-internal': false },
    ]);
  });

  it('says that any other instance is not production', () => {
    expect(documentServers({ NODE_ENV: '', PUBLIC_BASE_URL: '' }, request)).toEqual([
      { url: 'http://localhost:3000', description: 'A local or test instance, not production (NODE_ENV is not production)', 'x-internal': false },
    ]);
  });
});
