import { Injectable } from '@nestjs/common';
import type { NameSearch } from '@lvs/register';
import { LookupQueue } from '../lookups/lookup-queue';
import { LOOKUP_PRIORITY, LookupPriority } from '../lookups/lookups.queue';
import { ResultCache } from '../lookups/result-cache';
import { HolderDataProtection, holderDataRow } from '../secrets/holder-data';
import type { LookupSubject } from '../verification/verification.service';
import { nameSearchText, normaliseNameSearch, searchQuotaUnit } from './name-search-query';

/**
 * A name search as a lookup subject: normalised, named by the HMAC digest of its fields (its quota unit, cache key
 * and single-flight id), and sealed for the worker, so that no name or date of birth is ever stored in clear.
 */
@Injectable()
export class NameSearchSubjects {
  constructor(
    private readonly lookups: LookupQueue,
    private readonly cache: ResultCache,
    private readonly holderData: HolderDataProtection,
  ) {}

  subject(search: NameSearch, priority: LookupPriority = LOOKUP_PRIORITY.liveVerify): LookupSubject {
    const normalised = normaliseNameSearch(search);
    const searchKey = this.holderData.digest(nameSearchText(normalised));
    return {
      unit: searchQuotaUnit(searchKey),
      cacheKey: this.cache.nameSearchKey(searchKey),
      enqueue: (requestId) =>
        this.lookups.enqueueNameSearch({ searchKey, sealedSearch: this.holderData.seal(JSON.stringify(normalised), holderDataRow.nameSearch(searchKey)), requestId }, priority),
    };
  }

  /** The search that confirms a date of birth: the card's own names, and the date claimed. */
  dateOfBirthSubject(card: { surname: string; firstName: string }, dateOfBirth: string, priority?: LookupPriority): LookupSubject {
    return this.subject({ surname: card.surname, firstName: card.firstName, dateOfBirth }, priority);
  }
}
