import { keySignInAllowed } from './key-sign-in';

describe('keySignInAllowed', () => {
  it('follows the setting when it is set', () => {
    expect(keySignInAllowed(true, '')).toBe(true);
    expect(keySignInAllowed(false, '')).toBe(false);
    expect(keySignInAllowed(false, 'production')).toBe(false);
  });

  it('is on outside production and off in production when unset', () => {
    expect(keySignInAllowed(undefined, '')).toBe(true);
    expect(keySignInAllowed(undefined, 'test')).toBe(true);
    expect(keySignInAllowed(undefined, 'production')).toBe(false);
  });
});
