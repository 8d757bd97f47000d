import { looksLikeEmail, normaliseEmail } from './email-address';

/**
 * What every single sign-on through OpenID Connect decides alone, for a partner's members and the service's
 * operators alike: which issuer addresses are accepted, how a list of e-mail domains is read, and whether a
 * provider's claims name a verified address of an allowed domain.
 */

/** A DNS name of at least two labels, each of letters, digits and inner hyphens (an IDN in its xn-- form). */
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
export const MAX_SSO_DOMAINS = 20;

/**
 * Why an issuer URL is refused, or null: HTTPS, or (with `loopbackHttp`, outside production) HTTP on this machine,
 * for a provider in development and tests; without query, fragment or credentials.
 */
export function issuerUrlRefusal(text: string, loopbackHttp: boolean): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'Enter the issuer as a URL such as https://login.example.com.';
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') return 'The issuer URL takes no query, fragment or credentials.';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && loopbackHttp && isLoopbackUrl(url)) return null;
  return 'The issuer URL must start with https://.';
}

/** Whether a URL names this machine, where plain HTTP is allowed for a provider in development and tests. */
export function isLoopbackUrl(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * The domains of a form's text (separated by commas, spaces or lines; a leading @ is dropped), lower case, each
 * once and in the order given; a refusal's words when one is not a domain, or none or too many are given.
 */
export function parseDomains(text: string): string[] | { error: string } {
  const items = text
    .split(/[\s,;]+/)
    .map((item) => item.trim().toLowerCase().replace(/^@/, ''))
    .filter((item) => item !== '');
  if (items.length === 0) return { error: 'Enter at least one e-mail domain, such as example.com.' };
  const invalid = items.find((item) => !DOMAIN.test(item));
  if (invalid !== undefined) return { error: `${invalid} is not an e-mail domain such as example.com.` };
  const domains = [...new Set(items)];
  if (domains.length > MAX_SSO_DOMAINS) return { error: `Enter at most ${MAX_SSO_DOMAINS} e-mail domains.` };
  return domains;
}

/** The domain of an address, lower case; null when it is no address. */
export function emailDomain(address: string): string | null {
  const email = normaliseEmail(address);
  return looksLikeEmail(email) ? email.slice(email.lastIndexOf('@') + 1) : null;
}

/** Whether an address's domain is one of `domains` exactly: a subdomain is a domain of its own, and must be listed. */
export function domainAllowed(address: string, domains: readonly string[]): boolean {
  const domain = emailDomain(address);
  return domain !== null && domains.includes(domain);
}

export type ClaimsRefusal = 'NO_EMAIL' | 'EMAIL_NOT_VERIFIED' | 'DOMAIN_NOT_ALLOWED';

/** The words a person reads for each refusal of a provider's answer. */
export const CLAIMS_REFUSAL_MESSAGES: Readonly<Record<ClaimsRefusal, string>> = {
  NO_EMAIL: 'Your identity provider did not give your e-mail address. Ask your administrator to release the email scope.',
  EMAIL_NOT_VERIFIED: 'Your identity provider has not verified your e-mail address, so it cannot sign you in here.',
  DOMAIN_NOT_ALLOWED: 'Your e-mail domain is not one your organisation allows for single sign-on here.',
};

/**
 * The address a provider's claims (the ID token's, with the UserInfo answer's) sign in, normalised; or why they
 * sign in nobody: no address, an address the provider has not verified (email_verified must be the boolean true),
 * or one whose domain is not allowed.
 */
export function signedInEmail(claims: Record<string, unknown>, domains: readonly string[]): { email: string } | { refusal: ClaimsRefusal } {
  if (typeof claims.email !== 'string' || emailDomain(claims.email) === null) return { refusal: 'NO_EMAIL' };
  if (claims.email_verified !== true) return { refusal: 'EMAIL_NOT_VERIFIED' };
  if (!domainAllowed(claims.email, domains)) return { refusal: 'DOMAIN_NOT_ALLOWED' };
  return { email: normaliseEmail(claims.email) };
}
