import { delaysOverTick, nextCheckAt, recheckBudgetPerSecond, recheckClaimLimit, recheckConcurrency } from './recheck-pace';

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

describe('nextCheckAt', () => {
  it('is a full cycle after the re-check finished', () => {
    expect(nextCheckAt(new Date('2026-11-22T10:00:00.250Z'), 10)).toEqual(new Date('2026-11-22T10:00:10.250Z'));
    expect(nextCheckAt(new Date('2026-11-22T10:00:00Z'), 86_400)).toEqual(new Date('2026-11-23T10:00:00Z'));
  });
});

describe('delaysOverTick', () => {
  it('spreads the claimed re-checks evenly over the tick, the first at once', () => {
    expect(delaysOverTick(4, 1000)).toEqual([0, 250, 500, 750]);
    expect(delaysOverTick(3, 1000)).toEqual([0, 333, 666]);
    expect(delaysOverTick(1, 1000)).toEqual([0]);
    expect(delaysOverTick(0, 1000)).toEqual([]);
  });
});

describe('recheckConcurrency', () => {
  it('is the register share of the lookup slots, at least one', () => {
    expect(recheckConcurrency(16, 0.5)).toBe(8);
    expect(recheckConcurrency(64, 0.25)).toBe(16);
    expect(recheckConcurrency(3, 0.5)).toBe(1);
    expect(recheckConcurrency(1, 0.01)).toBe(1);
  });
});

describe('recheckBudgetPerSecond', () => {
  it('is the register share of the budget, at least one', () => {
    expect(recheckBudgetPerSecond(50, 0.5)).toBe(25);
    expect(recheckBudgetPerSecond(10, 0.25)).toBe(2);
    expect(recheckBudgetPerSecond(1, 0.5)).toBe(1);
  });
});
