import { REGISTER_LOOKUP_QUEUE, TEST_LOOKUP_QUEUE } from './lookup-jobs';
import { boundingQueue, exceedsQueueBound, exceedsUserBound, exceedsWaitingBounds, liveLookupBound, WaitingCounts } from './waiting-bounds';

const limits = { queueMax: 1500, userMax: 1000 };
const counts = (change: Partial<WaitingCounts>): WaitingCounts => ({ live: 0, all: 0, user: 0, ...change });

describe('exceedsWaitingBounds', () => {
  it('admits a user up to their bound, the new lookups included, and refuses past it', () => {
    expect(exceedsWaitingBounds('background', 1000, counts({ user: 0, all: 0 }), limits)).toBe(false);
    expect(exceedsWaitingBounds('background', 1, counts({ user: 999, all: 999 }), limits)).toBe(false);
    expect(exceedsWaitingBounds('background', 1000, counts({ user: 950, all: 950 }), limits)).toBe(true);
    expect(exceedsWaitingBounds('background', 100, counts({ user: 950, all: 950 }), limits)).toBe(true);
    expect(exceedsWaitingBounds('live', 1, counts({ user: 1000, all: 1000 }), limits)).toBe(true);
  });

  it('does not refuse another user for someone else’s backlog below the queue bound', () => {
    expect(exceedsWaitingBounds('background', 100, counts({ user: 0, all: 1000 }), limits)).toBe(false);
  });

  it('refuses background lookups once everything waiting reaches the queue bound', () => {
    expect(exceedsWaitingBounds('background', 1, counts({ user: 0, all: 1500 }), limits)).toBe(true);
    expect(exceedsWaitingBounds('background', 1, counts({ user: 0, all: 1499 }), limits)).toBe(false);
  });

  it('measures a live verification against live lookups only', () => {
    expect(exceedsWaitingBounds('live', 1, counts({ live: 10, all: 5000 }), limits)).toBe(false);
    expect(exceedsWaitingBounds('live', 1, counts({ live: 1500, all: 1500 }), limits)).toBe(true);
  });
});

describe('exceedsUserBound', () => {
  it('counts the new lookups with those already waiting', () => {
    expect(exceedsUserBound(0, 1000, 1000)).toBe(false);
    expect(exceedsUserBound(1, 1000, 1000)).toBe(true);
    expect(exceedsUserBound(999, 1, 1000)).toBe(false);
  });
});

describe('exceedsQueueBound', () => {
  it('measures background lookups against everything waiting, live ones against live ones only', () => {
    expect(exceedsQueueBound('background', { live: 0, all: 1500 }, 1500)).toBe(true);
    expect(exceedsQueueBound('background', { live: 0, all: 1499 }, 1500)).toBe(false);
    expect(exceedsQueueBound('live', { live: 1499, all: 9000 }, 1500)).toBe(false);
    expect(exceedsQueueBound('live', { live: 1500, all: 1500 }, 1500)).toBe(true);
  });
});

describe('boundingQueue', () => {
  it("bounds a test key's lookups by the test queue and a live key's by the register's, so neither's backlog refuses the other", () => {
    expect(boundingQueue('test')).toBe(TEST_LOOKUP_QUEUE);
    expect(boundingQueue('live')).toBe(REGISTER_LOOKUP_QUEUE);
    expect(TEST_LOOKUP_QUEUE).not.toBe(REGISTER_LOOKUP_QUEUE);
  });
});

describe('liveLookupBound', () => {
  it("is the account's own bound when the operator set one, above or below the setting", () => {
    expect(liveLookupBound(1, 100)).toBe(1);
    expect(liveLookupBound(250, 100)).toBe(250);
  });

  it('is USER_MAX_LIVE_LOOKUPS when the account has none (null), or the caller carries none (absent)', () => {
    expect(liveLookupBound(null, 100)).toBe(100);
    expect(liveLookupBound(undefined, 100)).toBe(100);
  });
});
