import type { RegisterLicence } from '@lvs/register';
import type { FinalResult, FinalStatus } from '../lookups/lookup-outcome';
import { daysUntil } from './expiry-warnings';
import type { WatchState } from './watch-entry.entity';
import type { KeyMode } from '../auth/key-mode';

/** How long a number's state (holder names included) is kept after its last watcher left. */
export const UNWATCHED_STATE_RETENTION_DAYS = 30;

/**
 * The columns of a watch entry as shown, from watch_entries w joined with licence_states s. A paused entry shows
 * its state as of its pause (e), not what later re-checks for other watchers found.
 */
export const ENTRY_SOURCE = `watch_entries w JOIN licence_states s ON s.licence_number = w.licence_number
  CROSS JOIN LATERAL (SELECT CASE WHEN w.state = 'PAUSED' THEN w.paused_result ELSE s.result END AS result,
                             CASE WHEN w.state = 'PAUSED' THEN w.paused_checked_at ELSE s.checked_at END AS checked_at,
                             CASE WHEN w.state = 'PAUSED' THEN w.paused_last_changed_at ELSE s.last_changed_at END AS last_changed_at) e`;
export const ENTRY_COLUMNS = `w.licence_number, w.reference, w.added_at, w.state, w.paused_reason, e.result, e.checked_at, e.last_changed_at,
  w.successor_licence_number`;

/** A watch entry joined with its number's last known state, as stored. */
export interface WatchEntryRow {
  licence_number: string;
  reference: string | null;
  added_at: Date;
  state: WatchState;
  paused_reason: string | null;
  result: FinalResult | null;
  checked_at: Date | null;
  last_changed_at: Date | null;
  successor_licence_number: string | null;
}

export interface WatchEntryView {
  licenceNumber: string;
  reference: string | null;
  addedAt: string;
  /** null until the first re-check */
  status: FinalStatus | null;
  licence: RegisterLicence | null;
  checkedAt: string | null;
  lastChangedAt: string | null;
  expiresInDays: number | null;
  state: WatchState;
  pausedReason: string | null;
  /** only once a successor is known */
  successorLicenceNumber?: string;
  mode: KeyMode;
}

export function watchEntryView(row: WatchEntryRow, now: Date, mode: KeyMode): WatchEntryView {
  const licence = row.result?.status === 'FOUND' ? row.result.licence : null;
  return {
    licenceNumber: row.licence_number,
    reference: row.reference,
    addedAt: row.added_at.toISOString(),
    status: row.result?.status ?? null,
    licence,
    checkedAt: row.checked_at?.toISOString() ?? null,
    lastChangedAt: row.last_changed_at?.toISOString() ?? null,
    expiresInDays: licence ? daysUntil(licence.expiryDate, now) : null,
    state: row.state,
    pausedReason: row.paused_reason,
    ...(row.successor_licence_number === null ? {} : { successorLicenceNumber: row.successor_licence_number }),
    mode,
  };
}
