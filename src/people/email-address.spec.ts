import { looksLikeEmail, normaliseEmail } from './email-address';

describe('e-mail addresses', () => {
  it('are compared trimmed and in lower case', () => {
    expect(normaliseEmail('  Jane.Smith@ACME.example ')).toBe('jane.smith@acme.example');
  });

  it('look like an address with one @ and a dotted domain', () => {
    expect(looksLikeEmail('jane@acme.example')).toBe(true);
    expect(looksLikeEmail('jane@acme')).toBe(false);
    expect(looksLikeEmail('jane smith@acme.example')).toBe(false);
    expect(looksLikeEmail('jane@@acme.example')).toBe(false);
    expect(looksLikeEmail(`${'a'.repeat(250)}@b.cd`)).toBe(false);
  });
});
