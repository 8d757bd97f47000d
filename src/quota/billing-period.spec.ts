import { billingPeriod, remainingQuota } from './billing-period';

describe('billingPeriod', () => {
  describe('in UTC', () => {
    it('counts the last millisecond of January as 2026-01', () => {
      expect(billingPeriod(new Date('2026-01-31T23:59:59.999Z'), 'UTC')).toBe('2026-01');
    });

    it('counts the first millisecond of February as 2026-02', () => {
      expect(billingPeriod(new Date('2026-02-01T00:00:00.000Z'), 'UTC')).toBe('2026-02');
    });

    it('counts the last millisecond of a leap-year February as February', () => {
      expect(billingPeriod(new Date('2028-02-29T23:59:59.999Z'), 'UTC')).toBe('2028-02');
    });

    it('counts the last millisecond of the year as December of that year', () => {
      expect(billingPeriod(new Date('2026-12-31T23:59:59.999Z'), 'UTC')).toBe('2026-12');
    });

    it('counts the first millisecond of the next year as January of the next year', () => {
      expect(billingPeriod(new Date('2027-01-01T00:00:00.000Z'), 'UTC')).toBe('2027-01');
    });

    it.each([
      ['2026-01-15T12:00:00Z', '2026-01'],
      ['2026-09-15T12:00:00Z', '2026-09'],
      ['2026-10-15T12:00:00Z', '2026-10'],
    ])('zero-pads single-digit months only: %s is %s', (instant, expected) => {
      expect(billingPeriod(new Date(instant), 'UTC')).toBe(expected);
    });
  });

  describe('in Europe/London', () => {
    it('counts March 31 23:30 UTC as April in London during BST', () => {
      expect(billingPeriod(new Date('2026-03-31T23:30:00Z'), 'Europe/London')).toBe('2026-04');
    });

    it('counts March 31 22:59:59.999 UTC (23:59:59.999 BST) as March in London', () => {
      expect(billingPeriod(new Date('2026-03-31T22:59:59.999Z'), 'Europe/London')).toBe('2026-03');
    });

    it('counts March 31 23:00 UTC (April 1 00:00 BST) as April in London', () => {
      expect(billingPeriod(new Date('2026-03-31T23:00:00.000Z'), 'Europe/London')).toBe('2026-04');
    });

    it('counts December 31 23:30 UTC as December in London, which is on GMT in winter', () => {
      expect(billingPeriod(new Date('2026-12-31T23:30:00Z'), 'Europe/London')).toBe('2026-12');
    });

    it('counts New Year 00:00 UTC as January of the next year in London', () => {
      expect(billingPeriod(new Date('2027-01-01T00:00:00Z'), 'Europe/London')).toBe('2027-01');
    });
  });

  describe('in America/New_York (west of UTC)', () => {
    it('counts 2026-12-01T03:00Z as still November in New York', () => {
      expect(billingPeriod(new Date('2026-12-01T03:00:00Z'), 'America/New_York')).toBe('2026-11');
    });

    it('counts 2026-12-01T05:00Z (midnight EST) as December in New York', () => {
      expect(billingPeriod(new Date('2026-12-01T05:00:00Z'), 'America/New_York')).toBe('2026-12');
    });

    it('counts 2027-01-01T04:59:59.999Z as still December 2026 in New York (year rollover)', () => {
      expect(billingPeriod(new Date('2027-01-01T04:59:59.999Z'), 'America/New_York')).toBe('2026-12');
    });

    it('counts 2027-01-01T05:00Z as January 2027 in New York', () => {
      expect(billingPeriod(new Date('2027-01-01T05:00:00Z'), 'America/New_York')).toBe('2027-01');
    });
  });

  it('keeps each zone apart when zones alternate (formatters are reused per zone)', () => {
    const instant = new Date('2026-12-01T03:00:00Z');
    expect([
      billingPeriod(instant, 'America/New_York'),
      billingPeriod(instant, 'UTC'),
      billingPeriod(instant, 'America/New_York'),
      billingPeriod(instant, 'UTC'),
    ]).toEqual(['2026-11', '2026-12', '2026-11', '2026-12']);
  });

  it('tells apart the last and the first millisecond of a month asked in turn (answers are reused per minute)', () => {
    const lastOfNovember = new Date('2026-11-30T23:59:59.999Z');
    const firstOfDecember = new Date('2026-12-01T00:00:00.000Z');
    expect([
      billingPeriod(lastOfNovember, 'UTC'),
      billingPeriod(new Date('2026-11-30T23:59:00.000Z'), 'UTC'),
      billingPeriod(firstOfDecember, 'UTC'),
      billingPeriod(lastOfNovember, 'UTC'),
      billingPeriod(new Date('2026-12-01T00:00:59.999Z'), 'UTC'),
    ]).toEqual(['2026-11', '2026-11', '2026-12', '2026-11', '2026-12']);
  });

  it('counts a zone with a half-hour offset by its own midnight (India, UTC+5:30)', () => {
    expect(billingPeriod(new Date('2026-11-30T18:29:59.999Z'), 'Asia/Kolkata')).toBe('2026-11');
    expect(billingPeriod(new Date('2026-11-30T18:30:00.000Z'), 'Asia/Kolkata')).toBe('2026-12');
  });

  it('puts the same instant in different periods in different zones', () => {
    const instant = new Date('2026-12-31T23:30:00Z');
    expect([billingPeriod(instant, 'UTC'), billingPeriod(instant, 'Asia/Tokyo'), billingPeriod(instant, 'America/New_York')]).toEqual([
      '2026-12',
      '2027-01',
      '2026-12',
    ]);
  });
});

describe('remainingQuota', () => {
  it('is null for an unlimited plan (quota null)', () => {
    expect(remainingQuota(null, 0)).toBeNull();
  });

  it('is null for an unlimited plan however much was used', () => {
    expect(remainingQuota(null, 1_000_000)).toBeNull();
  });

  it('is the whole quota when nothing was used', () => {
    expect(remainingQuota(100, 0)).toBe(100);
  });

  it('is the difference below the limit', () => {
    expect(remainingQuota(100, 37)).toBe(63);
  });

  it('is 1 one below the limit', () => {
    expect(remainingQuota(100, 99)).toBe(1);
  });

  it('is exactly 0 at the limit', () => {
    expect(remainingQuota(100, 100)).toBe(0);
  });

  it('is 0, never negative, above the limit', () => {
    expect(remainingQuota(100, 101)).toBe(0);
  });

  it('is 0 for a zero quota', () => {
    expect(remainingQuota(0, 0)).toBe(0);
  });
});
