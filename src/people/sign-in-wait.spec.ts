import { signInWaitSeconds } from './sign-in-wait';

describe('signInWaitSeconds', () => {
  it('is 0 when both counters let the attempt through', () => {
    expect(signInWaitSeconds(0, 0)).toBe(0);
  });

  it('is the longer wait, rounded up to a whole second', () => {
    expect(signInWaitSeconds(1, 0)).toBe(1);
    expect(signInWaitSeconds(12_300, 45_001)).toBe(46);
    expect(signInWaitSeconds(59_999, 2_000)).toBe(60);
  });
});
