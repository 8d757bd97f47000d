/**
 * An e-mail address as it is compared and stored for sign-in: trimmed and in lower case. The local part is
 * case-sensitive by the letter of RFC 5321, but no provider a business uses treats it so, and two accounts that
 * differ only in case would be a trap for the person signing in.
 */
export function normaliseEmail(address: string): string {
  return address.trim().toLowerCase();
}

/** A plain address check for forms (one @, something either side, a dot in the domain, no spaces); delivery proves the rest. */
export function looksLikeEmail(address: string): boolean {
  return address.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address);
}
