import type { NewEvent } from '../events/events.service';
import type { LicenceChange } from './detect-changes';

/** One event per change for one watcher, as every re-check sends them. */
export function changeEvents(licenceNumber: string, watcher: { userId: string; reference: string | null }, changes: LicenceChange[]): NewEvent[] {
  return changes.map((change) => ({
    userId: watcher.userId,
    type: change.type,
    data: { licenceNumber, reference: watcher.reference, previous: change.previous, current: change.current },
  }));
}
