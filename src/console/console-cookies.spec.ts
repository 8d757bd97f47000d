import { cookieHeader, readCookie, SESSION_COOKIE, SIGN_IN_COOKIE, SSO_COOKIE } from './console-cookies';

describe('readCookie', () => {
  it('reads a cookie among others', () => {
    expect(readCookie('a=1; lvs_console=abc_-9; b=2', 'lvs_console')).toBe('abc_-9');
  });

  it('does not take a cookie whose name only ends with the name', () => {
    expect(readCookie('x_lvs_console=evil', 'lvs_console')).toBeNull();
  });

  it('takes the first of two cookies with the name', () => {
    expect(readCookie('lvs_console=first; lvs_console=second', 'lvs_console')).toBe('first');
  });

  it.each([undefined, '', 'lvs_console=', 'lvs_console', 'other=1'])('answers null for %p', (header) => {
    expect(readCookie(header, 'lvs_console')).toBeNull();
  });
});

describe('cookieHeader', () => {
  it('is __Host- shaped: Secure, Path=/ and no Domain; HttpOnly and SameSite=Strict (Lax for the single sign-on callback), in every environment', () => {
    expect(cookieHeader(SESSION_COOKIE, 'v', 28800)).toBe('__Host-lvs_console=v; Path=/; Max-Age=28800; HttpOnly; SameSite=Strict; Secure');
    expect(cookieHeader(SIGN_IN_COOKIE, '', 0)).toBe('__Host-lvs_console_sign_in=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict; Secure');
    expect(cookieHeader(SSO_COOKIE, 'v', 600, 'Lax')).toBe('__Host-lvs_console_sso=v; Path=/; Max-Age=600; HttpOnly; SameSite=Lax; Secure');
  });
});
