import { isDnsServerEntry } from './dns-servers';

describe('isDnsServerEntry', () => {
  it.each(['127.0.0.1', '127.0.0.1:5353', '::1', '[::1]:53', '[2001:4860:4860::8888]:53', '9.9.9.9:65535'])('accepts %s', (entry) => {
    expect(isDnsServerEntry(entry)).toBe(true);
  });

  it.each(['dns.example', 'dns.example:53', '127.0.0.1:0', '127.0.0.1:65536', '[127.0.0.1]:53', '::1:53x', '[::1]', '', '1.2.3:53'])(
    'refuses %s',
    (entry) => {
      expect(isDnsServerEntry(entry)).toBe(false);
    },
  );
});
