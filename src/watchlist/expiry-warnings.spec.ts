import { daysUntil, dueExpiryWarning } from './expiry-warnings';

describe('daysUntil', () => {
  it('counts whole UTC days from today to the expiry date', () => {
    expect(daysUntil('2027-06-06', new Date('2027-04-07T23:59:00Z'))).toBe(60);
    expect(daysUntil('2027-06-06', new Date('2027-06-05T00:00:00Z'))).toBe(1);
    expect(daysUntil('2027-06-06', new Date('2027-06-06T12:00:00Z'))).toBe(0);
    expect(daysUntil('2027-06-06', new Date('2027-06-08T12:00:00Z'))).toBe(-2);
  });
});

describe('dueExpiryWarning', () => {
  it('sends nothing before 60 days', () => {
    expect(dueExpiryWarning(61, [])).toEqual({ warnAt: null, sent: [] });
  });

  it('fires each threshold once as the days go by', () => {
    expect(dueExpiryWarning(60, [])).toEqual({ warnAt: 60, sent: [60] });
    expect(dueExpiryWarning(45, [60])).toEqual({ warnAt: null, sent: [60] });
    expect(dueExpiryWarning(30, [60])).toEqual({ warnAt: 30, sent: [60, 30] });
    expect(dueExpiryWarning(7, [60, 30])).toEqual({ warnAt: 7, sent: [60, 30, 7] });
    expect(dueExpiryWarning(1, [60, 30, 7])).toEqual({ warnAt: 1, sent: [60, 30, 7, 1] });
    expect(dueExpiryWarning(1, [60, 30, 7, 1])).toEqual({ warnAt: null, sent: [60, 30, 7, 1] });
  });

  it('fires only the nearest threshold when several were crossed at once', () => {
    expect(dueExpiryWarning(5, [])).toEqual({ warnAt: 7, sent: [60, 30, 7] });
  });

  it('sends nothing on or after the expiry day', () => {
    expect(dueExpiryWarning(0, [60])).toEqual({ warnAt: null, sent: [60] });
    expect(dueExpiryWarning(-3, [])).toEqual({ warnAt: null, sent: [] });
  });
});
