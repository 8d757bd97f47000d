import type { RegisterLicence } from '@lvs/register';
import type { VerificationBody } from '../verification/outcome-status';
import { daysUntil } from '../watchlist/expiry-warnings';
import type { BatchItemView, BatchView } from '../batches/batch-view';
import type { WatchEntryView } from '../watchlist/watch-entry-view';
import type { DateOfBirthCheck, HolderCheck } from '../holders/holder-check';
import type { NameMatch } from '../holders/match-holder-name';
import type { BatchItemStatus } from '../batches/batch-view';
import { ITEM_STATUSES } from '../batches/batch-view';
import { ERROR_CODES, ErrorCode } from '../errors/error-codes';
import type { VerificationAnswer } from '../verification/verification-outcomes';

/** How a status is shown: its colour class and, for colour-blind readers, its words. */
export type Tone = 'ok' | 'warn' | 'bad';

/** "41 days left", "expires today", "expired 3 days ago". */
export function daysLeftWords(days: number): string {
  if (days === 0) return 'expires today';
  if (days > 0) return `${days} day${days === 1 ? '' : 's'} left`;
  return `expired ${-days} day${days === -1 ? '' : 's'} ago`;
}

/** A register status's tone: Active is fine, a licence near or past its end needs a look, the rest is refused. */
export function licenceTone(status: string, daysLeft: number): Tone {
  if (status.toLowerCase() !== 'active' || daysLeft < 0) return 'bad';
  return daysLeft <= 30 ? 'warn' : 'ok';
}

export interface LicenceCard {
  name: string;
  status: string;
  tone: Tone;
  statusReason: string | null;
  sector: string;
  role: string;
  expiryDate: string;
  daysLeft: string;
}

export function licenceCard(licence: RegisterLicence, today: Date): LicenceCard {
  const days = daysUntil(licence.expiryDate, today);
  return {
    name: `${licence.firstName} ${licence.surname}`,
    status: licence.status,
    tone: licenceTone(licence.status, days),
    statusReason: licence.statusReason,
    sector: licence.licenceSector ?? 'None shown',
    role: licence.role,
    expiryDate: licence.expiryDate,
    daysLeft: daysLeftWords(days),
  };
}

/** A verification as the Verify page shows it: the outcome in words, and the card when a licence was found. */
export interface VerificationView {
  status: VerificationBody['status'];
  message: string;
  tone: Tone;
  card: LicenceCard | null;
  checkedAt: string | null;
}

export function verificationView(body: VerificationBody, today: Date): VerificationView {
  const card = body.licence ? licenceCard(body.licence, today) : null;
  const tone: Tone = card ? card.tone : body.status === 'NOT_FOUND' ? 'bad' : 'warn';
  return { status: body.status, message: body.message, tone, card, checkedAt: body.checkedAt };
}

/** One line of a holder check as the Verify page shows it: what was compared, the API's value, and its words. */
export interface HolderCheckLine {
  label: string;
  value: string;
  words: string;
  tone: Tone;
}

const NAME_LINES: Record<NameMatch, Omit<HolderCheckLine, 'label' | 'value'>> = {
  MATCH: { words: 'The name matches the card.', tone: 'ok' },
  PARTIAL: { words: 'The surname matches; the first name only in part (an initial, or one of its names).', tone: 'warn' },
  MISMATCH: { words: 'The name does not match the card.', tone: 'bad' },
};

const DATE_OF_BIRTH_LINES: Record<DateOfBirthCheck, Omit<HolderCheckLine, 'label' | 'value'>> = {
  CONFIRMED: { words: 'The register confirms this date of birth for this licence.', tone: 'ok' },
  NOT_CONFIRMED: { words: 'The register does not confirm this date of birth for this licence.', tone: 'bad' },
  UNDETERMINED: { words: 'The register finds too many people of this name to confirm the date of birth.', tone: 'warn' },
  NOT_CHECKED: { words: 'Not checked: no date of birth was given.', tone: 'warn' },
};

/** A holder check in words: the name, then the date of birth. */
export function holderCheckLines(check: HolderCheck): HolderCheckLine[] {
  return [
    { label: 'Name', value: check.name, ...NAME_LINES[check.name] },
    { label: 'Date of birth', value: check.dateOfBirth, ...DATE_OF_BIRTH_LINES[check.dateOfBirth] },
  ];
}

/** The share of the quota used, 0-100, for the usage bar; null on an unlimited plan. */
export function usedPercent(used: number, quota: number | null): number | null {
  if (quota === null) return null;
  if (quota === 0) return 100;
  return Math.min(100, Math.round((used / quota) * 100));
}

export interface ChartBar {
  period: string;
  used: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export const CHART = { width: 600, height: 160, gap: 6 } as const;

/** Bars of the usage chart (SVG user units), scaled to the busiest month so that small months stay visible. */
export function usageChart(periods: readonly { period: string; used: number }[]): ChartBar[] {
  const top = Math.max(1, ...periods.map((entry) => entry.used));
  const width = CHART.width / Math.max(periods.length, 1) - CHART.gap;
  return periods.map((entry, index) => {
    const height = Math.round((entry.used / top) * CHART.height);
    return {
      period: entry.period,
      used: entry.used,
      x: Math.round(index * (width + CHART.gap)),
      y: CHART.height - height,
      width: Math.round(width),
      height,
    };
  });
}

/** A row that needs a look: the number was not found (or not answered), or its licence is not Active. */
export function isFlagged(status: string, licence: RegisterLicence | null): boolean {
  return status !== 'FOUND' || licence?.status.toLowerCase() !== 'active';
}

/** How far a batch is: items with a final result, and the share of all items. */
export function batchProgress(batch: Pick<BatchView, 'total' | 'counts'>): { done: number; percent: number } {
  const done = batch.total - batch.counts.PENDING;
  return { done, percent: batch.total === 0 ? 100 : Math.round((done / batch.total) * 100) };
}

/** A final result in words, the same on every page. */
const RESULT_WORDS = { FOUND: 'Found', NOT_FOUND: 'Not found', TOO_MANY_RESULTS: 'Several licences for one number' } as const;

/** The Overview's verifications by answer: a PENDING answer was sent before the register answered. */
export const ANSWER_WORDS: Record<VerificationAnswer, string> = { ...RESULT_WORDS, PENDING: 'Still with the register when answered' };

/** A roster row's outcome: PENDING is still being checked, ERROR could not be checked. */
const ROSTER_OUTCOME_WORDS: Record<BatchItemStatus, string> = { ...RESULT_WORDS, PENDING: 'Being checked', ERROR: 'Could not be checked' };

/** The outcomes a roster is counted and filtered by, each with its words. */
export const ROSTER_OUTCOMES = ITEM_STATUSES.map((status) => ({ status, words: ROSTER_OUTCOME_WORDS[status] }));

/** A row's result in words: an ERROR says why, in the error table's words. */
export function rosterResultWords(item: Pick<BatchItemView, 'status' | 'errorCode'>): string {
  const words = ROSTER_OUTCOME_WORDS[item.status];
  const reason = item.errorCode !== null && item.errorCode in ERROR_CODES ? ERROR_CODES[item.errorCode as ErrorCode].message : null;
  return reason === null ? words : `${words}: ${reason}`;
}

export interface RosterRowView {
  item: BatchItemView;
  flagged: boolean;
  result: string;
  name: string | null;
  licenceStatus: string | null;
}

/** The results table of a batch, only the rows of one outcome when asked. */
export function rosterRows(items: readonly BatchItemView[], outcome: string | null): RosterRowView[] {
  return items
    .filter((item) => outcome === null || item.status === outcome)
    .map((item) => ({
      item,
      flagged: isFlagged(item.status, item.licence),
      result: rosterResultWords(item),
      name: item.licence ? `${item.licence.firstName} ${item.licence.surname}` : null,
      licenceStatus: item.licence?.status ?? null,
    }));
}

const TIME_UNITS = [
  { seconds: 86_400, name: 'day' },
  { seconds: 3600, name: 'hour' },
  { seconds: 60, name: 'minute' },
  { seconds: 1, name: 'second' },
] as const;

/** How often watched numbers are checked again, from WATCH_RECHECK_SECONDS: "every day", "every 5 seconds". */
export function recheckWords(seconds: number): string {
  const unit = TIME_UNITS.find((candidate) => seconds % candidate.seconds === 0) ?? TIME_UNITS[3];
  const count = seconds / unit.seconds;
  return count === 1 ? `every ${unit.name}` : `every ${count} ${unit.name}s`;
}

/**
 * The month's usage in a sentence: what counts against the quota (each licence number once a month, however
 * often and however it is checked), which is why it may be fewer than the answers counted below it.
 */
export function usageWords(usage: { used: number; quota: number | null; remaining: number | null }): string {
  const numbers = `${usage.used} licence number${usage.used === 1 ? '' : 's'}`;
  const of = usage.quota === null ? 'on an unlimited plan' : `of the ${usage.quota} your plan allows (${usage.remaining} left)`;
  return (
    `You have used ${numbers} this month, ${of}. Each number counts once a month however often it is checked, ` +
    'by Verify, a roster or the watchlist, so this can be fewer than the answers counted below.'
  );
}

/** A watched number as the Watchlist page lists it, marked when it needs a look soon or now. */
export interface WatchRowView {
  licenceNumber: string;
  reference: string | null;
  holder: string | null;
  status: string;
  expiryDate: string | null;
  daysLeft: string | null;
  checkedAt: string | null;
  /** flagged: not Active, not found or expired; soon: expires within 30 days; null: nothing to see */
  mark: 'flagged' | 'soon' | null;
}

export function watchRow(entry: WatchEntryView): WatchRowView {
  const licence = entry.licence;
  const days = entry.expiresInDays;
  const tone = licence && days !== null ? licenceTone(licence.status, days) : entry.status === null ? null : 'bad';
  return {
    licenceNumber: entry.licenceNumber,
    reference: entry.reference,
    holder: licence ? `${licence.firstName} ${licence.surname}` : null,
    status: licence?.status ?? entry.status ?? 'Not checked yet',
    expiryDate: licence?.expiryDate ?? null,
    daysLeft: days === null ? null : daysLeftWords(days),
    checkedAt: entry.checkedAt,
    mark: tone === 'bad' ? 'flagged' : tone === 'warn' ? 'soon' : null,
  };
}
