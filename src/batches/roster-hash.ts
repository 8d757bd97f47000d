import { createHash } from 'node:crypto';
import type { RosterEntry } from '../common/roster';

/**
 * Identifies a request's rows, so that an Idempotency-Key replayed with other rows is refused. A date of birth
 * enters it only as `digest` makes it (a keyed HMAC): a plain hash of a roster would let a date be guessed back.
 */
export function rosterHash(entries: RosterEntry[], digest: (dateOfBirth: string) => string): string {
  const rows = entries.map(({ licenceNumber, reference, holder }) => [
    licenceNumber,
    reference,
    ...(holder ? [holder.firstName, holder.surname, holder.dateOfBirth === undefined ? null : digest(holder.dateOfBirth)] : []),
  ]);
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
}
