import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, sessionTimeLeftMs } from './session-lifetime';

describe('sessionTimeLeftMs', () => {
  const signedIn = Date.parse('2026-11-25T08:00:00Z');

  it('is the idle hour right after sign-in', () => {
    expect(sessionTimeLeftMs(signedIn, signedIn)).toBe(SESSION_IDLE_MS);
  });

  it('is cut short by the absolute end in the last hour', () => {
    expect(sessionTimeLeftMs(signedIn, signedIn + SESSION_ABSOLUTE_MS - 10 * 60_000)).toBe(10 * 60_000);
  });

  it('is 0 at the absolute end and after it', () => {
    expect(sessionTimeLeftMs(signedIn, signedIn + SESSION_ABSOLUTE_MS)).toBe(0);
    expect(sessionTimeLeftMs(signedIn, signedIn + SESSION_ABSOLUTE_MS + 1)).toBe(0);
  });
});
