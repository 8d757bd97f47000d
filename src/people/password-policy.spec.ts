import { MAX_PASSWORD_LENGTH, passwordRefusal } from './password-policy';

describe('passwordRefusal', () => {
  it('refuses fewer than 12 characters, however random', () => {
    expect(passwordRefusal('Xq7#pL2!vR9')).toBe('TOO_SHORT');
  });

  it('counts characters, not UTF-16 units: eleven emoji are still too short', () => {
    expect(passwordRefusal('🦊🐙🦉🐢🦔🐳🦑🐝🦩🐌🦎')).toBe('TOO_SHORT');
  });

  it('refuses a long but common password', () => {
    expect(passwordRefusal('password1234')).toBe('TOO_WEAK');
    expect(passwordRefusal('qwertyuiop123')).toBe('TOO_WEAK');
  });

  it('refuses a password that is the person own e-mail address', () => {
    expect(passwordRefusal('jane.smith@acme.example', ['jane.smith@acme.example', 'Jane Smith'])).toBe('TOO_WEAK');
  });

  it('takes a passphrase of unrelated words', () => {
    expect(passwordRefusal('violet tractor umbrella sings')).toBeNull();
  });

  it('refuses more than the longest length', () => {
    expect(passwordRefusal('ab1!'.repeat(MAX_PASSWORD_LENGTH / 4) + 'x')).toBe('TOO_LONG');
  });
});
