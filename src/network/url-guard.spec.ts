import { embeddedIPv4, isBlockedAddress, urlProblem } from './url-guard';

describe('isBlockedAddress', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:10.1.2.3',
    'not-an-ip',
  ])('blocks %s', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });
});

// Each way an IPv6 address can carry an IPv4 one, with a blocked and a public IPv4 address inside.
const EMBEDDED: [scheme: string, address: string, carried: string[], blocked: boolean][] = [
  ['IPv4-mapped', '::ffff:a9fe:a9fe', ['169.254.169.254'], true],
  ['IPv4-mapped, dotted', '::ffff:127.0.0.1', ['127.0.0.1'], true],
  ['IPv4-mapped', '::ffff:808:808', ['8.8.8.8'], false],
  ['IPv4-translated', '::ffff:0:a00:1', ['10.0.0.1'], true],
  ['IPv4-translated, dotted', '::ffff:0:192.168.1.1', ['192.168.1.1'], true],
  ['IPv4-translated', '::ffff:0:808:808', ['8.8.8.8'], false],
  ['IPv4-compatible', '::7f00:1', ['127.0.0.1'], true],
  ['IPv4-compatible, dotted', '::169.254.169.254', ['169.254.169.254'], true],
  ['IPv4-compatible', '::808:808', ['8.8.8.8'], false],
  ['NAT64 well-known', '64:ff9b::a9fe:a9fe', ['169.254.169.254'], true],
  ['NAT64 well-known', '64:ff9b::10.1.2.3', ['10.1.2.3'], true],
  ['NAT64 well-known', '64:ff9b::808:808', ['8.8.8.8'], false],
  ['NAT64 local-use, /96 reading', '64:ff9b:1::a9fe:a9fe', ['0.0.0.0', '0.0.0.0', '0.0.0.169', '169.254.169.254'], true],
  ['NAT64 local-use, /48 reading', '64:ff9b:1:7f00:0:100::', ['127.0.0.1', '0.0.1.0', '0.1.0.0', '0.0.0.0'], true],
  ['NAT64 local-use, public in every reading', '64:ff9b:1:808:8:808:808:808', ['8.8.8.8', '8.8.8.8', '8.8.8.8', '8.8.8.8'], false],
  ['6to4', '2002:a9fe:a9fe::1', ['169.254.169.254'], true],
  ['6to4', '2002:c0a8:101::', ['192.168.1.1'], true],
  ['6to4', '2002:808:808::1', ['8.8.8.8'], false],
  ['Teredo (client XOR ffff:ffff)', '2001:0:4136:e378:8000:63bf:80ff:fffe', ['127.0.0.1'], true],
  ['Teredo (client XOR ffff:ffff)', '2001::f5ff:fffe', ['10.0.0.1'], true],
  ['Teredo (client XOR ffff:ffff)', '2001:0:4136:e378:8000:63bf:f7f7:f7f7', ['8.8.8.8'], false],
];

describe('embeddedIPv4 and isBlockedAddress on IPv6 addresses that carry IPv4', () => {
  it.each(EMBEDDED)('%s %s carries %j (blocked: %s)', (_scheme, address, carried, blocked) => {
    expect(embeddedIPv4(address)).toEqual(carried);
    expect(isBlockedAddress(address)).toBe(blocked);
  });

  it('refuses the discard-only prefix 100::/64 outright, and not the rest of 100::/8', () => {
    expect(isBlockedAddress('100::1')).toBe(true);
    expect(isBlockedAddress('100::ffff:ffff:ffff:ffff')).toBe(true);
    expect(isBlockedAddress('100:0:0:1::1')).toBe(false);
  });

  it('finds nothing inside an ordinary global IPv6 address', () => {
    expect(embeddedIPv4('2606:4700:4700::1111')).toEqual([]);
    expect(isBlockedAddress('2606:4700:4700::1111')).toBe(false);
  });

  it.each(EMBEDDED.map(([scheme, address, , blocked]) => [scheme, address, blocked] as const))(
    'checks a webhook URL to the %s literal [%s] the same way (refused: %s)',
    (_scheme, address, blocked) => {
      expect(urlProblem(`https://[${address}]/hook`, false)).toBe(blocked ? 'address' : null);
    },
  );
});

describe('urlProblem', () => {
  it('accepts a public https URL', () => {
    expect(urlProblem('https://hooks.partner.example/licences', false)).toBeNull();
    expect(urlProblem('https://93.184.216.34:8443/in', false)).toBeNull();
  });

  it.each([
    ['http://127.0.0.1/hook', 'scheme'],
    ['https://10.0.0.1/hook', 'address'],
    ['https://127.0.0.1/hook', 'address'],
    ['https://169.254.169.254/latest/meta-data', 'address'],
    ['https://[::1]/hook', 'address'],
    ['https://localhost/hook', 'local name'],
    ['https://metadata.google.internal/', 'local name'],
    ['https://intranet/hook', 'local name'],
    ['http://hooks.partner.example/', 'scheme'],
    ['ftp://hooks.partner.example/', 'scheme'],
    ['https://user:pass@hooks.partner.example/', 'credentials'],
    ['not a url', 'not a URL'],
  ])('refuses %s (%s) by default', (url, problem) => {
    expect(urlProblem(url, false)).toBe(problem);
  });

  it('allows http and private addresses when the override is on, but not other schemes', () => {
    expect(urlProblem('http://127.0.0.1:8080/hook', true)).toBeNull();
    expect(urlProblem('https://10.0.0.1/hook', true)).toBeNull();
    expect(urlProblem('ftp://127.0.0.1/', true)).toBe('scheme');
  });
});
