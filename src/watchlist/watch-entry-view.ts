import type { RegisterLicence } from '@lvs/register';
import type { FinalResult, FinalStatus } from '../lookups/lookup-outcome';
import { daysUntil } from './expiry-warnings';
import type { WatchState } from './watch-entry.entity';

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
}

export function watchEntryView(row: WatchEntryRow, now: Date): WatchEntryView {
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
  };
}
