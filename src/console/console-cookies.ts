/**
 * The console's session cookie, and the one that carries the sign-in form's CSRF token before a session exists.
 * With the `__Host-` prefix a browser keeps them only when this very host sets them Secure, with Path=/ and no
 * Domain, so neither a sibling subdomain nor a plain-HTTP page can plant or overwrite one (a planted sign-in
 * token would defeat its CSRF check).
 */
export const SESSION_COOKIE = '__Host-lvs_console';
export const SIGN_IN_COOKIE = '__Host-lvs_console_sign_in';
/**
 * The one cookie a browser sends back from another site: it names a single sign-on waiting for its provider's
 * callback, a top-level GET from the provider's site, which SameSite=Strict would withhold (SameSite=Lax).
 */
export const SSO_COOKIE = '__Host-lvs_console_sso';

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

/**
 * A Set-Cookie value the browser keeps from scripts (HttpOnly), never sends from another site (SameSite=Strict;
 * Lax for SSO_COOKIE's single sign-on callback) and never sends over plain HTTP (Secure), as the `__Host-` prefix requires. Always Secure: browsers count
 * loopback (http://127.0.0.1, http://localhost) as secure, so development keeps it too, and production is
 * served over HTTPS only. Values are base64url, so nothing needs escaping.
 */
export function cookieHeader(name: string, value: string, maxAgeSeconds: number, sameSite: 'Strict' | 'Lax' = 'Strict'): string {
  return `${name}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=${sameSite}; Secure`;
}
