import { cookieHeader, readCookie } from './console-cookies';

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
  it('is HttpOnly, SameSite=Strict and limited to the console, without Secure over HTTP', () => {
    expect(cookieHeader('lvs_console', 'v', { maxAgeSeconds: 28800, secure: false })).toBe(
      'lvs_console=v; Path=/console; Max-Age=28800; HttpOnly; SameSite=Strict',
    );
  });

  it('adds Secure behind HTTPS', () => {
    expect(cookieHeader('lvs_console', 'v', { maxAgeSeconds: 0, secure: true })).toBe(
      'lvs_console=v; Path=/console; Max-Age=0; HttpOnly; SameSite=Strict; Secure',
    );
  });
});
