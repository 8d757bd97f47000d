import { isBlockedAddress, urlProblem } from './url-guard';

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
