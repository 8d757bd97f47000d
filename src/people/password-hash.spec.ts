import { hashPassword, passwordMatches } from './password-hash';

describe('hashPassword and passwordMatches', () => {
  it('stores argon2id with a salt of its own, and matches only the same password', async () => {
    const first = await hashPassword('violet tractor umbrella sings');
    const second = await hashPassword('violet tractor umbrella sings');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(first).not.toBe(second);
    expect(await passwordMatches(first, 'violet tractor umbrella sings')).toBe(true);
    expect(await passwordMatches(first, 'violet tractor umbrella sing')).toBe(false);
  });

  it('refuses every password when there is no account', async () => {
    expect(await passwordMatches(null, '\u0000 no account \u0000')).toBe(false);
  });
});
