import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, sessionTimeLeftMs } from './session-lifetime';

describe('sessionTimeLeftMs', () => {
  const signedIn = Date.parse('2026-11-25T08:00:00Z');
  const minutes = (count: number) => count * 60_000;

  it('is the idle hour right after sign-in', () => {
    expect(sessionTimeLeftMs(signedIn, signedIn, signedIn)).toBe(SESSION_IDLE_MS);
  });

  it('counts the idle hour from the last request', () => {
    expect(sessionTimeLeftMs(signedIn, signedIn + minutes(50), signedIn + minutes(100))).toBe(minutes(10));
  });

  it('is 0 an hour after the last request, and later', () => {
    expect(sessionTimeLeftMs(signedIn, signedIn + minutes(50), signedIn + minutes(110))).toBe(0);
    expect(sessionTimeLeftMs(signedIn, signedIn, signedIn + minutes(61))).toBe(0);
  });

  it('is cut short by the absolute end, however recent the last request', () => {
    const nearEnd = signedIn + SESSION_ABSOLUTE_MS - minutes(10);
    expect(sessionTimeLeftMs(signedIn, nearEnd, nearEnd)).toBe(minutes(10));
  });

  it('is 0 at the absolute end and after it', () => {
    const end = signedIn + SESSION_ABSOLUTE_MS;
    expect(sessionTimeLeftMs(signedIn, end - 1, end)).toBe(0);
    expect(sessionTimeLeftMs(signedIn, end - 1, end + 1)).toBe(0);
  });
});
