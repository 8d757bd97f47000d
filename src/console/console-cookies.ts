/** The console's session cookie, and the one that carries the sign-in form's CSRF token before a session exists. */
export const SESSION_COOKIE = 'lvs_console';
export const SIGN_IN_COOKIE = 'lvs_console_sign_in';

/** The value of one cookie in a Cookie header; null when absent or empty. The first of several with the name wins. */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator === -1 || part.slice(0, separator).trim() !== name) continue;
    const value = part.slice(separator + 1).trim();
    return value === '' ? null : value;
  }
  return null;
}

export interface CookieOptions {
  /** seconds; 0 deletes the cookie */
  maxAgeSeconds: number;
  secure: boolean;
}

/**
 * A Set-Cookie value the browser keeps from scripts (HttpOnly), never sends from another site (SameSite=Strict)
 * and, behind HTTPS, never sends over plain HTTP (Secure). Values are base64url, so nothing needs escaping.
 */
export function cookieHeader(name: string, value: string, { maxAgeSeconds, secure }: CookieOptions): string {
  const attributes = [`${name}=${value}`, 'Path=/console', `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Strict'];
  if (secure) attributes.push('Secure');
  return attributes.join('; ');
}
