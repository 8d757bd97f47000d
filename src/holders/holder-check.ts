import type { RegisterLicence } from '@lvs/register';
import type { NameSearchResult } from '../lookups/lookup-outcome';
import { HolderName, matchHolderName, NameMatch } from './match-holder-name';

export type DateOfBirthCheck = 'CONFIRMED' | 'NOT_CONFIRMED' | 'UNDETERMINED' | 'NOT_CHECKED';

export interface HolderCheck {
  name: NameMatch;
  dateOfBirth: DateOfBirthCheck;
}

/**
 * What a name search with the card's names and the claimed date of birth says of that date: CONFIRMED when it
 * finds the very number checked, UNDETERMINED when the register finds too many to list, NOT_CONFIRMED otherwise
 * (nothing, or only other licences of someone with the same names).
 */
export function dateOfBirthCheck(search: NameSearchResult, licenceNumber: string): Exclude<DateOfBirthCheck, 'NOT_CHECKED'> {
  if (search.status === 'TOO_MANY_RESULTS') return 'UNDETERMINED';
  return search.licences.some((licence) => licence.licenceNumber === licenceNumber) ? 'CONFIRMED' : 'NOT_CONFIRMED';
}

/** The holder check of a found card: its name compared, and the date of birth's search read when one was made. */
export function holderCheck(card: RegisterLicence, claimed: HolderName, dateOfBirthSearch: NameSearchResult | null): HolderCheck {
  return {
    name: matchHolderName(card, claimed),
    dateOfBirth: dateOfBirthSearch === null ? 'NOT_CHECKED' : dateOfBirthCheck(dateOfBirthSearch, card.licenceNumber),
  };
}
