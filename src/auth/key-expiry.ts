import { ISO_INSTANT_MAX_LENGTH } from '../validation/iso-instant';

/** Whether a key with this expiry is no longer valid at `now`; a key without expiry never expires. */
export function isExpired(expiresAt: Date | null, now: Date): boolean {
  return expiresAt !== null && expiresAt.getTime() <= now.getTime();
}

/**
 * The expiry of a key issued by another key: what was asked for, but never later than the issuer's own expiry,
 * so that a key cannot outlive the key that made it (null, never, is later than any date).
 */
export function cappedExpiry(requested: Date | null, issuer: Date | null): Date | null {
  if (issuer === null) return requested;
  if (requested === null || requested.getTime() > issuer.getTime()) return issuer;
  return requested;
}

// A date (midnight UTC), or a date and time with its zone: a time without one would be read in
// whatever zone the writer's machine happens to use.
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/;

/** Parses an expiry written in ISO-8601; null when it is not, is longer than any real one, or names a day that does not exist. */
export function parseExpiry(text: string): Date | null {
  if (text.length > ISO_INSTANT_MAX_LENGTH) return null;
  const match = ISO_8601.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Date rolls 30 February over into March; the calendar must hold the day as written.
  const calendarDay = new Date(Date.UTC(year, month - 1, day));
  if (calendarDay.getUTCMonth() !== month - 1 || calendarDay.getUTCDate() !== day) return null;
  const instant = new Date(text);
  return Number.isNaN(instant.getTime()) ? null : instant;
}
