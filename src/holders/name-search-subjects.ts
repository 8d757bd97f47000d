import { Injectable } from '@nestjs/common';
import type { NameSearch } from '@lvs/register';
import { LookupSubject, nameSearchSubject } from '../lookups/lookup-subject';
import { HolderDataProtection, holderDataRow } from '../secrets/holder-data';
import { nameSearchText, normaliseNameSearch, searchQuotaUnit } from './name-search-query';

/**
 * A name search as a lookup subject: normalised, named by the HMAC digest of its fields (its quota unit, cache key
 * and single-flight id), and sealed for the worker, so that no name or date of birth is ever stored in clear.
 */
@Injectable()
export class NameSearchSubjects {
  constructor(private readonly holderData: HolderDataProtection) {}

  subject(search: NameSearch): LookupSubject {
    const normalised = normaliseNameSearch(search);
    const searchKey = this.holderData.digest(nameSearchText(normalised));
    return nameSearchSubject(searchKey, this.holderData.seal(JSON.stringify(normalised), holderDataRow.nameSearch(searchKey)), searchQuotaUnit(searchKey));
  }

  /** The search that confirms a date of birth: the card's own names, and the date claimed. */
  dateOfBirthSubject(card: { surname: string; firstName: string }, dateOfBirth: string): LookupSubject {
    return this.subject({ surname: card.surname, firstName: card.firstName, dateOfBirth });
  }
}
