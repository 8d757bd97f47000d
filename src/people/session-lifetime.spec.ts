import { sessionLimits, sessionTimeLeftMs } from './session-lifetime';

describe('sessionTimeLeftMs', () => {
  const limits = sessionLimits(30, 12);
  const signedIn = Date.parse('2026-11-25T08:00:00Z');
  const minutes = (count: number) => count * 60_000;

  it('reads the settings as minutes idle and hours in all', () => {
    expect(limits).toEqual({ idleMs: minutes(30), absoluteMs: minutes(12 * 60) });
  });

  it('is the idle time right after sign-in', () => {
    expect(sessionTimeLeftMs(limits, signedIn, signedIn, signedIn)).toBe(minutes(30));
  });

  it('counts the idle time from the last request', () => {
    expect(sessionTimeLeftMs(limits, signedIn, signedIn + minutes(50), signedIn + minutes(70))).toBe(minutes(10));
  });

  it('is 0 once the idle time has passed since the last request, and later', () => {
    expect(sessionTimeLeftMs(limits, signedIn, signedIn + minutes(50), signedIn + minutes(80))).toBe(0);
    expect(sessionTimeLeftMs(limits, signedIn, signedIn, signedIn + minutes(31))).toBe(0);
  });

  it('is cut short by the absolute end, however recent the last request', () => {
    const nearEnd = signedIn + limits.absoluteMs - minutes(10);
    expect(sessionTimeLeftMs(limits, signedIn, nearEnd, nearEnd)).toBe(minutes(10));
  });

  it('is 0 at the absolute end and after it', () => {
    const end = signedIn + limits.absoluteMs;
    expect(sessionTimeLeftMs(limits, signedIn, end - 1, end)).toBe(0);
    expect(sessionTimeLeftMs(limits, signedIn, end - 1, end + 1)).toBe(0);
  });
});
