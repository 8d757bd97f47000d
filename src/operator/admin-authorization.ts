import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether an Authorization header carries the admin token, as `Bearer <token>` or as the password of
 * Basic auth (so a browser's login prompt works). Compared in constant time.
 */
export function isAdminAuthorized(header: unknown, token: string): boolean {
  if (typeof header !== 'string' || token === '') return false;
  const [scheme, credentials = ''] = header.trim().split(/\s+/, 2);
  let offered: string;
  if (/^bearer$/i.test(scheme)) {
    offered = credentials;
  } else if (/^basic$/i.test(scheme)) {
    const decoded = Buffer.from(credentials, 'base64').toString('utf8');
    offered = decoded.slice(decoded.indexOf(':') + 1);
  } else {
    return false;
  }
  return timingSafeEqual(digest(offered), digest(token));
}
