import { admitLookup, BreakerState, CLOSED_BREAKER, parseBreakerState, recordOutcome } from './breaker-state';

const settings = { failureThreshold: 3, cooldownMs: 30_000 };
const T = 1_000_000;

function afterOutcomes(outcomes: Array<'answered' | 'unavailable'>, start: BreakerState = CLOSED_BREAKER): BreakerState {
  return outcomes.reduce((state, outcome, index) => recordOutcome(state, outcome, T + index, settings), start);
}

describe('recordOutcome', () => {
  it('stays closed below the threshold of consecutive unavailable outcomes', () => {
    expect(afterOutcomes(['unavailable', 'unavailable'])).toEqual({ phase: 'closed', failures: 2, openUntil: 0, probeUntil: 0 });
  });

  it('opens at the threshold, for the cooldown from the last failure', () => {
    expect(afterOutcomes(['unavailable', 'unavailable', 'unavailable'])).toEqual({
      phase: 'open',
      failures: 3,
      openUntil: T + 2 + 30_000,
      probeUntil: 0,
    });
  });

  it('counts only consecutive failures: an answer in between starts again from zero', () => {
    expect(afterOutcomes(['unavailable', 'unavailable', 'answered', 'unavailable', 'unavailable'])).toMatchObject({ phase: 'closed', failures: 2 });
  });

  it('returns the same object for an answer while closed without failures (nothing to write)', () => {
    expect(recordOutcome(CLOSED_BREAKER, 'answered', T, settings)).toBe(CLOSED_BREAKER);
  });

  it('ignores late failures while open: the cooldown is not stretched', () => {
    const open = afterOutcomes(['unavailable', 'unavailable', 'unavailable']);
    expect(recordOutcome(open, 'unavailable', T + 10_000, settings)).toBe(open);
  });

  it('closes on an answer while open or half-open', () => {
    const open = afterOutcomes(['unavailable', 'unavailable', 'unavailable']);
    expect(recordOutcome(open, 'answered', T + 5, settings)).toEqual(CLOSED_BREAKER);
    const halfOpen = admitLookup(open, open.openUntil, settings).next;
    expect(recordOutcome(halfOpen, 'answered', open.openUntil + 5, settings)).toEqual(CLOSED_BREAKER);
  });

  it('opens again for a whole cooldown when the probe finds the register unavailable', () => {
    const open = afterOutcomes(['unavailable', 'unavailable', 'unavailable']);
    const halfOpen = admitLookup(open, open.openUntil + 1, settings).next;
    expect(recordOutcome(halfOpen, 'unavailable', open.openUntil + 100, settings)).toEqual({
      phase: 'open',
      failures: 4,
      openUntil: open.openUntil + 100 + 30_000,
      probeUntil: 0,
    });
  });
});

describe('admitLookup', () => {
  const open: BreakerState = { phase: 'open', failures: 3, openUntil: T + 30_000, probeUntil: 0 };

  it('admits every lookup while closed, changing nothing', () => {
    const state = { ...CLOSED_BREAKER, failures: 2 };
    expect(admitLookup(state, T, settings)).toEqual({ admitted: true, next: state });
  });

  it('refuses while the cooldown runs', () => {
    expect(admitLookup(open, T + 29_999, settings)).toEqual({ admitted: false, next: open });
  });

  it('lets exactly one probe through when the cooldown is over, and refuses the others while it runs', () => {
    const probe = admitLookup(open, T + 30_000, settings);
    expect(probe).toEqual({ admitted: true, next: { ...open, phase: 'half-open', probeUntil: T + 60_000 } });
    expect(admitLookup(probe.next, T + 30_001, settings)).toEqual({ admitted: false, next: probe.next });
  });

  it('lets another probe go when the first one never reported within a cooldown', () => {
    const halfOpen: BreakerState = { ...open, phase: 'half-open', probeUntil: T + 60_000 };
    expect(admitLookup(halfOpen, T + 60_000, settings)).toEqual({ admitted: true, next: { ...halfOpen, probeUntil: T + 90_000 } });
  });
});

describe('parseBreakerState', () => {
  it('reads what was stored', () => {
    const state: BreakerState = { phase: 'half-open', failures: 7, openUntil: 5, probeUntil: 9 };
    expect(parseBreakerState(JSON.stringify(state))).toEqual(state);
  });

  it('takes missing or unreadable state for a closed breaker', () => {
    for (const stored of [null, '', 'not json', '{"phase":"ajar"}', '[]']) expect(parseBreakerState(stored)).toEqual(CLOSED_BREAKER);
  });

  it('takes unreadable numbers for zero', () => {
    expect(parseBreakerState('{"phase":"open","failures":"x","openUntil":null}')).toEqual({ phase: 'open', failures: 0, openUntil: 0, probeUntil: 0 });
  });
});
