import type { RegisterLicence } from '@lvs/register';
import { SANDBOX_LICENCES } from '@lvs/test-register';
import {
  batchProgress,
  daysLeftWords,
  holderCheckLines,
  isFlagged,
  licenceCard,
  recheckWords,
  rosterResultWords,
  rosterRows,
  usageWords,
  watchRow,
  licenceTone,
  usageChart,
  usedPercent,
  verificationView,
} from './console-view';

const TODAY = new Date('2026-11-25T18:30:00Z');

const LICENCE: RegisterLicence = SANDBOX_LICENCES.active;

describe('daysLeftWords', () => {
  it.each([
    [41, '41 days left'],
    [1, '1 day left'],
    [0, 'expires today'],
    [-1, 'expired 1 day ago'],
    [-3, 'expired 3 days ago'],
  ])('%i is "%s"', (days, words) => {
    expect(daysLeftWords(days)).toBe(words);
  });
});

describe('licenceTone', () => {
  it.each([
    ['Active', 31, 'ok'],
    ['Active', 30, 'warn'],
    ['active', 0, 'warn'],
    ['Active', -1, 'bad'],
    ['Revoked', 300, 'bad'],
    ['Suspended', 300, 'bad'],
  ])('%s with %i days left is %s', (status, days, tone) => {
    expect(licenceTone(status, days)).toBe(tone);
  });
});

describe('licenceCard and verificationView', () => {
  it('shows a found licence with its name, sector, role and days left', () => {
    expect(licenceCard(LICENCE, TODAY)).toEqual({
      name: 'JANE DOE',
      status: 'Active',
      tone: 'ok',
      statusReason: null,
      sector: 'Door Supervision',
      role: 'Front Line',
      expiryDate: '2027-06-06',
      daysLeft: '193 days left',
    });
  });

  it('says so when the register shows no sector', () => {
    expect(licenceCard({ ...LICENCE, licenceSector: null }, TODAY).sector).toBe('None shown');
  });

  it('gives NOT_FOUND the refused tone and no card', () => {
    const view = verificationView({ status: 'NOT_FOUND', message: 'No licence matches the number', licence: null, checkedAt: 'x' }, TODAY);
    expect(view).toEqual({ status: 'NOT_FOUND', message: 'No licence matches the number', tone: 'bad', card: null, checkedAt: 'x' });
  });

  it('gives PENDING the warning tone', () => {
    expect(verificationView({ status: 'PENDING', message: 'm', licence: null, checkedAt: null }, TODAY).tone).toBe('warn');
  });
});

describe('holderCheckLines', () => {
  it("shows the name, then the date of birth, each with the API's value and its tone", () => {
    expect(holderCheckLines({ name: 'MATCH', dateOfBirth: 'CONFIRMED' })).toEqual([
      { label: 'Name', value: 'MATCH', words: 'The name matches the card.', tone: 'ok' },
      { label: 'Date of birth', value: 'CONFIRMED', words: 'The register confirms this date of birth for this licence.', tone: 'ok' },
    ]);
  });

  it.each([
    ['PARTIAL', 'NOT_CHECKED', 'warn', 'warn'],
    ['MISMATCH', 'NOT_CONFIRMED', 'bad', 'bad'],
    ['MATCH', 'UNDETERMINED', 'ok', 'warn'],
  ] as const)('gives %s and %s the tones %s and %s', (name, dateOfBirth, nameTone, dateTone) => {
    expect(holderCheckLines({ name, dateOfBirth }).map((line) => line.tone)).toEqual([nameTone, dateTone]);
  });
});

describe('usedPercent', () => {
  it.each([
    [0, 100, 0],
    [42, 1000, 4],
    [1000, 1000, 100],
    [5, 0, 100],
    [7, null, null],
  ])('%i of %p is %p', (used, quota, percent) => {
    expect(usedPercent(used, quota)).toBe(percent);
  });
});

describe('usageChart', () => {
  it('scales bars to the largest month and places them side by side', () => {
    const bars = usageChart([
      { period: '2026-10', used: 50 },
      { period: '2026-11', used: 100 },
    ]);
    expect(bars).toEqual([
      { period: '2026-10', used: 50, x: 0, y: 80, width: 294, height: 80 },
      { period: '2026-11', used: 100, x: 300, y: 0, width: 294, height: 160 },
    ]);
  });

  it('draws months without verifications flat', () => {
    const bars = usageChart([{ period: '2026-11', used: 0 }]);
    expect(bars[0]).toMatchObject({ height: 0, y: 160 });
  });
});

describe('isFlagged', () => {
  it('leaves a found Active licence alone', () => {
    expect(isFlagged('FOUND', LICENCE)).toBe(false);
  });

  it.each([
    ['FOUND', { ...LICENCE, status: 'Revoked' }],
    ['NOT_FOUND', null],
    ['TOO_MANY_RESULTS', null],
    ['ERROR', null],
    ['PENDING', null],
  ])('flags %s with %p', (status, licence) => {
    expect(isFlagged(status, licence)).toBe(true);
  });
});

describe('batchProgress', () => {
  const counts = { FOUND: 2, NOT_FOUND: 1, TOO_MANY_RESULTS: 0, PENDING: 2, ERROR: 0 };

  it('counts every item that is no longer PENDING as done', () => {
    expect(batchProgress({ total: 5, counts })).toEqual({ done: 3, percent: 60 });
  });

  it('is complete for an empty batch', () => {
    expect(batchProgress({ total: 0, counts: { ...counts, PENDING: 0 } })).toEqual({ done: 0, percent: 100 });
  });
});

describe('rosterRows', () => {
  const item = (index: number, status: 'FOUND' | 'NOT_FOUND', licence: RegisterLicence | null) => ({
    index,
    licenceNumber: LICENCE.licenceNumber,
    reference: null,
    status,
    errorCode: null,
    licence,
    checkedAt: null,
    verificationId: null,
  });
  const items = [item(1, 'FOUND', LICENCE), item(2, 'NOT_FOUND', null)];

  it('keeps every row without a filter, flagging the ones to look at', () => {
    expect(rosterRows(items, null).map((row) => [row.item.index, row.flagged, row.name, row.licenceStatus])).toEqual([
      [1, false, 'JANE DOE', 'Active'],
      [2, true, null, null],
    ]);
  });

  it('keeps the rows of one outcome', () => {
    expect(rosterRows(items, 'NOT_FOUND').map((row) => row.item.index)).toEqual([2]);
  });

  it('says each result in words', () => {
    expect(rosterRows(items, null).map((row) => row.result)).toEqual(['Found', 'Not found']);
  });
});

describe('rosterResultWords', () => {
  it.each([
    ['FOUND', null, 'Found'],
    ['NOT_FOUND', null, 'Not found'],
    ['TOO_MANY_RESULTS', null, 'Several licences for one number'],
    ['PENDING', null, 'Being checked'],
    ['ERROR', 'SERVICE_UNAVAILABLE', 'Could not be checked: Upstream service is temporarily unavailable; try again later'],
    ['ERROR', 'NO_SUCH_CODE', 'Could not be checked'],
  ] as const)('%s (%s) is "%s"', (status, errorCode, words) => {
    expect(rosterResultWords({ status, errorCode })).toBe(words);
  });
});

describe('recheckWords', () => {
  it.each([
    [86_400, 'every day'],
    [172_800, 'every 2 days'],
    [21_600, 'every 6 hours'],
    [3600, 'every hour'],
    [1800, 'every 30 minutes'],
    [90, 'every 90 seconds'],
    [5, 'every 5 seconds'],
    [1, 'every second'],
  ])('%i seconds is "%s"', (seconds, words) => {
    expect(recheckWords(seconds)).toBe(words);
  });
});

describe('usageWords', () => {
  it('says what counts against the quota, and why it can be fewer than the answers', () => {
    expect(usageWords({ used: 9, quota: 100, remaining: 91 })).toBe(
      'You have used 9 licence numbers this month, of the 100 your plan allows (91 left). Each number counts once a month ' +
        'however often it is checked, by Verify, a roster or the watchlist, so this can be fewer than the answers counted below.',
    );
  });

  it('says one number, and an unlimited plan', () => {
    expect(usageWords({ used: 1, quota: null, remaining: null })).toMatch(/^You have used 1 licence number this month, on an unlimited plan\. /);
  });
});

describe('watchRow', () => {
  const entry = {
    licenceNumber: LICENCE.licenceNumber,
    reference: 'guard-7',
    addedAt: '2026-11-01T00:00:00.000Z',
    status: 'FOUND' as const,
    licence: LICENCE,
    checkedAt: '2026-11-25T10:00:00.000Z',
    lastChangedAt: null,
    expiresInDays: 40,
    state: 'ACTIVE' as const,
    pausedReason: null,
    mode: 'live' as const,
  };

  it('lists an Active licence far from expiry without a mark', () => {
    expect(watchRow(entry)).toEqual({
      licenceNumber: LICENCE.licenceNumber,
      reference: 'guard-7',
      holder: 'JANE DOE',
      status: 'Active',
      expiryDate: '2027-06-06',
      daysLeft: '40 days left',
      checkedAt: '2026-11-25T10:00:00.000Z',
      mark: null,
    });
  });

  it('marks a licence expiring within 30 days as soon', () => {
    expect(watchRow({ ...entry, expiresInDays: 30 }).mark).toBe('soon');
  });

  it('flags a licence that is not Active, and a number not found', () => {
    expect(watchRow({ ...entry, licence: { ...LICENCE, status: 'Revoked' } }).mark).toBe('flagged');
    expect(watchRow({ ...entry, status: 'NOT_FOUND', licence: null, expiresInDays: null })).toMatchObject({
      status: 'NOT_FOUND',
      mark: 'flagged',
      holder: null,
    });
  });

  it('says when a number was not checked yet', () => {
    expect(watchRow({ ...entry, status: null, licence: null, expiresInDays: null, checkedAt: null })).toMatchObject({
      status: 'Not checked yet',
      mark: null,
    });
  });
});
