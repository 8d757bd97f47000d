import { isTrustedProxyEntry } from './trusted-proxies';

describe('isTrustedProxyEntry', () => {
  it.each(['loopback', 'linklocal', 'uniquelocal', '10.0.0.1', '10.0.0.0/8', '192.168.1.0/24', '::1', 'fd00::/8', '0.0.0.0/0'])('accepts %s', (entry) =>
    expect(isTrustedProxyEntry(entry)).toBe(true),
  );

  it.each(['true', 'any', '10.0.0.0/33', 'fd00::/129', '10.0.0.0/8/1', '10.0.0/8', 'example.com', '10.0.0.0/', '10.0.0.0/x'])('refuses %s', (entry) =>
    expect(isTrustedProxyEntry(entry)).toBe(false),
  );
});
