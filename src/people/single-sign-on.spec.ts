import { domainAllowed, emailDomain, issuerUrlRefusal, parseDomains, signedInEmail } from './single-sign-on';

describe('issuerUrlRefusal', () => {
  it('takes HTTPS anywhere, and HTTP on this machine only where allowed (outside production)', () => {
    expect(issuerUrlRefusal('https://login.example.com', false)).toBeNull();
    expect(issuerUrlRefusal('https://login.example.com/tenant/abc/v2.0', false)).toBeNull();
    for (const local of ['http://localhost:4000', 'http://127.0.0.1:4000/oidc', 'http://[::1]:4000']) {
      expect(issuerUrlRefusal(local, true)).toBeNull();
      expect(issuerUrlRefusal(local, false)).toBe('The issuer URL must start with https://.');
    }
    expect(issuerUrlRefusal('http://login.example.com', true)).toBe('The issuer URL must start with https://.');
    expect(issuerUrlRefusal('ftp://login.example.com', true)).toBe('The issuer URL must start with https://.');
  });

  it('refuses what is no URL, and a query, fragment or credentials', () => {
    expect(issuerUrlRefusal('login.example.com', true)).toBe('Enter the issuer as a URL such as https://login.example.com.');
    for (const url of ['https://login.example.com/?tenant=1', 'https://login.example.com/#x', 'https://me:pw@login.example.com'])
      expect(issuerUrlRefusal(url, true)).toBe('The issuer URL takes no query, fragment or credentials.');
  });
});

describe('parseDomains', () => {
  it('reads domains separated by commas, spaces or lines, in lower case, each once, without a leading @', () => {
    expect(parseDomains(' Acme.example, @acme.co.uk\nsub.acme.example  acme.example ')).toEqual(['acme.example', 'acme.co.uk', 'sub.acme.example']);
  });

  it('refuses an empty list, a word that is no domain, and more than 20', () => {
    expect(parseDomains(' , ')).toEqual({ error: 'Enter at least one e-mail domain, such as example.com.' });
    expect(parseDomains('acme.example, localhost')).toEqual({ error: 'localhost is not an e-mail domain such as example.com.' });
    expect(parseDomains('*.acme.example')).toEqual({ error: '*.acme.example is not an e-mail domain such as example.com.' });
    expect(parseDomains('bob@acme.example')).toEqual({ error: 'bob@acme.example is not an e-mail domain such as example.com.' });
    expect(parseDomains(Array.from({ length: 21 }, (_, i) => `d${i}.example`).join(','))).toEqual({ error: 'Enter at most 20 e-mail domains.' });
  });
});

describe('domain matching', () => {
  it("takes an address's domain in lower case, and null for no address", () => {
    expect(emailDomain(' Olivia@ACME.example ')).toBe('acme.example');
    expect(emailDomain('no address')).toBeNull();
  });

  it('allows a listed domain exactly: neither a subdomain nor a parent, nor a look-alike ending', () => {
    const domains = ['acme.example'];
    expect(domainAllowed('Olivia@Acme.Example', domains)).toBe(true);
    expect(domainAllowed('olivia@eu.acme.example', domains)).toBe(false);
    expect(domainAllowed('olivia@example', domains)).toBe(false);
    expect(domainAllowed('olivia@notacme.example', domains)).toBe(false);
    expect(domainAllowed('olivia@acme.example.evil.test', domains)).toBe(false);
  });
});

describe('signedInEmail', () => {
  const domains = ['acme.example'];

  it('signs in a verified address of an allowed domain, normalised', () => {
    expect(signedInEmail({ sub: '1', email: 'Olivia@Acme.example', email_verified: true }, domains)).toEqual({ email: 'olivia@acme.example' });
  });

  it('refuses no address, an unverified one (anything but the boolean true), and another domain', () => {
    expect(signedInEmail({ sub: '1' }, domains)).toEqual({ refusal: 'NO_EMAIL' });
    expect(signedInEmail({ sub: '1', email: 'not an address', email_verified: true }, domains)).toEqual({ refusal: 'NO_EMAIL' });
    for (const verified of [false, 'true', undefined, 1])
      expect(signedInEmail({ email: 'olivia@acme.example', email_verified: verified }, domains)).toEqual({ refusal: 'EMAIL_NOT_VERIFIED' });
    expect(signedInEmail({ email: 'olivia@other.example', email_verified: true }, domains)).toEqual({ refusal: 'DOMAIN_NOT_ALLOWED' });
  });
});
