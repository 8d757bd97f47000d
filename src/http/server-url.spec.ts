import { serverUrl } from './server-url';

describe('serverUrl', () => {
  it('prefers the configured public address', () => {
    expect(serverUrl('https://api.example.com/licence', { protocol: 'http', host: '10.0.0.5:3000' })).toBe('https://api.example.com/licence');
  });

  it("falls back to the request's origin, with its port", () => {
    expect(serverUrl('', { protocol: 'https', host: 'partners.example.com:8443' })).toBe('https://partners.example.com:8443');
  });
});
