import type { RegisterLicence } from '@lvs/register';
import type { SUCCESSOR_CONFIDENCES } from '../events/event-types';
import type { FinalResult, NameSearchResult } from '../lookups/lookup-outcome';

export type SuccessorConfidence = (typeof SUCCESSOR_CONFIDENCES)[number];

/** Whether a re-check found a licence that was Active no longer so: Expired, Replaced, Surrendered, or gone. */
export function stoppedBeingActive(previous: RegisterLicence | null, current: FinalResult): boolean {
  if (previous?.status !== 'Active' || current.status === 'TOO_MANY_RESULTS') return false;
  return current.status === 'NOT_FOUND' || current.licence?.status !== 'Active';
}

/**
 * The successor a name search for the old licence's holder names: the one Active licence other than the old
 * number. Zero or several such licences name none, since a guess would move a partner onto someone else's card.
 */
export function successorOf(search: NameSearchResult, oldLicenceNumber: string): RegisterLicence | null {
  const candidates = search.licences.filter((licence) => licence.status === 'Active' && licence.licenceNumber !== oldLicenceNumber);
  return candidates.length === 1 ? candidates[0] : null;
}
