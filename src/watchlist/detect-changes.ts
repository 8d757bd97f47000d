import type { RegisterLicence } from '@lvs/register';
import type { FinalResult } from '../lookups/lookup-outcome';

export type LicenceChangeType = 'licence.status_changed' | 'licence.details_changed' | 'licence.not_found';

export interface LicenceChange {
  type: LicenceChangeType;
  previous: RegisterLicence | null;
  current: RegisterLicence | null;
}

/** Fields whose change is a licence.details_changed; status (with its reason) has its own event. */
const DETAIL_FIELDS = [
  'expiryDate',
  'licenceSector',
  'role',
  'firstName',
  'surname',
  'additionalConditions',
  'licenceType',
] as const satisfies readonly (keyof RegisterLicence)[];

function licenceOf(result: FinalResult): RegisterLicence | null {
  return result.status === 'FOUND' ? result.licence : null;
}

/**
 * What changed between the last known register answer for a number and a new one. The first
 * answer (previous null) is the baseline and changes nothing; TOO_MANY_RESULTS says nothing about
 * the licence, so it neither starts nor ends one. Only final answers come here: a failed lookup is
 * never compared, so an outage cannot look like a removal.
 */
export function detectChanges(previous: FinalResult | null, current: FinalResult): LicenceChange[] {
  if (previous === null || previous.status === 'TOO_MANY_RESULTS' || current.status === 'TOO_MANY_RESULTS') return [];
  const before = licenceOf(previous);
  const after = licenceOf(current);
  if (before === null && after === null) return [];
  if (after === null) return [{ type: 'licence.not_found', previous: before, current: null }];
  if (before === null) return [{ type: 'licence.status_changed', previous: null, current: after }];
  const changes: LicenceChange[] = [];
  if (before.status !== after.status) changes.push({ type: 'licence.status_changed', previous: before, current: after });
  if (DETAIL_FIELDS.some((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))) {
    changes.push({ type: 'licence.details_changed', previous: before, current: after });
  }
  return changes;
}
