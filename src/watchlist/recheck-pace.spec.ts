import { recheckClaimLimit } from './recheck-pace';

const defaults = { cycleSeconds: 86_400, tickMs: 1000, registerPerSecond: 10, registerShare: 0.5 };

describe('recheckClaimLimit', () => {
  it('spreads the watched numbers evenly over the cycle, with a fifth to catch up', () => {
    expect(recheckClaimLimit({ ...defaults, watchedNumbers: 86_400 })).toBe(2);
    expect(recheckClaimLimit({ ...defaults, watchedNumbers: 1000, cycleSeconds: 10, registerPerSecond: 1000 })).toBe(120);
  });

  it('claims at least one number per tick when any is watched', () => {
    expect(recheckClaimLimit({ ...defaults, watchedNumbers: 3 })).toBe(1);
  });

  it('never claims more than the register share of a tick', () => {
    expect(recheckClaimLimit({ ...defaults, watchedNumbers: 1_000_000 })).toBe(5);
    expect(recheckClaimLimit({ ...defaults, watchedNumbers: 1000, cycleSeconds: 5, registerPerSecond: 200, registerShare: 0.25 })).toBe(50);
  });
});
