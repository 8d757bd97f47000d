import type { RegisterLicence } from '@lvs/register';
import type { FinalResult, FinalStatus } from '../lookups/lookup-outcome';
import type { KeyMode } from '../auth/key-mode';
import { daysUntil } from './expiry-warnings';

export type WatchState = 'ACTIVE' | 'PAUSED';

/** How long a number's state (holder names included) is kept after its last watcher left. */
export const UNWATCHED_STATE_RETENTION_DAYS = 30;

/** A watch entry joined with its number's last known state (as of its pause while paused), as read. */
export interface WatchEntryRow {
  licenceNumber: string;
  reference: string | null;
  addedAt: Date;
  state: WatchState;
  pausedReason: string | null;
  result: FinalResult | null;
  checkedAt: Date | null;
  lastChangedAt: Date | null;
  successorLicenceNumber: string | null;
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
    licenceNumber: row.licenceNumber,
    reference: row.reference,
    addedAt: row.addedAt.toISOString(),
    status: row.result?.status ?? null,
    licence,
    checkedAt: row.checkedAt?.toISOString() ?? null,
    lastChangedAt: row.lastChangedAt?.toISOString() ?? null,
    expiresInDays: licence ? daysUntil(licence.expiryDate, now) : null,
    state: row.state,
    pausedReason: row.pausedReason,
    ...(row.successorLicenceNumber === null ? {} : { successorLicenceNumber: row.successorLicenceNumber }),
    mode,
  };
}
