import type { RegisterLicence } from '@lvs/register';
import type { FinalResult } from '../lookups/lookup-outcome';

/** What a canary's answer is compared on: every field of the card but the changing free text. */
export type CanaryAnswer = Pick<
  RegisterLicence,
  'firstName' | 'surname' | 'dateOfBirth' | 'role' | 'licenceSector' | 'licenceType' | 'status' | 'expiryDate'
>;

/** One look at a canary: the register's answer, a page we could not read, or no answer (the register unavailable). */
export type CanaryReading = { kind: 'answer'; result: FinalResult } | { kind: 'parse-error' } | { kind: 'no-answer' };

export type CanaryVerdict =
  | { verdict: 'baseline' | 'good'; answer: CanaryAnswer }
  | { verdict: 'failed'; reason: string }
  /** Nothing learnt: the register did not answer, which the breaker's alert covers. */
  | { verdict: 'unknown' };

/** Fields a licence never changes: any change is the register (or our reading of it) gone wrong. */
const FIXED_FIELDS = ['firstName', 'surname', 'dateOfBirth', 'role', 'licenceSector', 'licenceType'] as const;

function canaryAnswer(licence: RegisterLicence): CanaryAnswer {
  const { firstName, surname, dateOfBirth, role, licenceSector, licenceType, status, expiryDate } = licence;
  return { firstName, surname, dateOfBirth, role, licenceSector, licenceType, status, expiryDate };
}

/**
 * Whether a status and expiry moved as a licence's do: the expiry stays or moves later (a renewal, which may make an
 * Expired licence Active again), and an Active licence turns Expired from its expiry date on. Anything else (a
 * revocation included) is a failure for a licence the operator chose as stable; the operator re-baselines.
 */
function movedAsLicencesDo(before: CanaryAnswer, after: CanaryAnswer, today: string): boolean {
  if (after.expiryDate < before.expiryDate) return false;
  if (after.status === before.status) return true;
  const renewed = after.expiryDate > before.expiryDate;
  if (before.status === 'Active' && after.status === 'Expired') return today >= after.expiryDate;
  return before.status === 'Expired' && after.status === 'Active' && renewed;
}

/**
 * Judges one look at a canary against its last good answer (`baseline`, null on the first look). Reasons name the
 * fields only, never their values: an alert carries no holder data.
 */
export function judgeCanary(baseline: CanaryAnswer | null, reading: CanaryReading, today: string): CanaryVerdict {
  if (reading.kind === 'no-answer') return { verdict: 'unknown' };
  if (reading.kind === 'parse-error') return { verdict: 'failed', reason: 'the register page could not be read (PARSE_ERROR)' };
  const { result } = reading;
  if (result.status !== 'FOUND' || !result.licence) return { verdict: 'failed', reason: `the register answered ${result.status}` };
  const answer = canaryAnswer(result.licence);
  if (baseline === null) return { verdict: 'baseline', answer };
  const changed = FIXED_FIELDS.filter((field) => answer[field] !== baseline[field]);
  if (changed.length > 0) return { verdict: 'failed', reason: `changed: ${changed.join(', ')}` };
  if (!movedAsLicencesDo(baseline, answer, today)) return { verdict: 'failed', reason: 'the status or expiry changed as a licence does not' };
  return { verdict: 'good', answer };
}
