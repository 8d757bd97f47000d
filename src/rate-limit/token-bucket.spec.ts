import { rateLimitFields } from './rate-limit-fields';
import { backlogAt, BucketPolicy, BucketState, readBucket, refillSeconds, takeToken, userPolicy } from './token-bucket';

const SECOND = 1_000_000;

/** Sends one request at `atMicros` to a bucket, as the Redis script does: pay back, then take. */
function send(state: BucketState | null, atMicros: number, policy: BucketPolicy) {
  const taken = takeToken(backlogAt(state, atMicros, policy), policy);
  const next = taken.admitted ? { backlog: taken.backlog, atMicros } : state;
  return { admitted: taken.admitted, state: next, reading: readBucket(taken.backlog, policy) };
}

function sendMany(count: number, atMicros: number, policy: BucketPolicy, start: BucketState | null = null) {
  let state = start;
  const admitted: boolean[] = [];
  for (let i = 0; i < count; i++) {
    const sent = send(state, atMicros, policy);
    admitted.push(sent.admitted);
    state = sent.state;
  }
  return { admitted, state };
}

describe('userPolicy', () => {
  it('takes the defaults without an override, and twice the rate as burst with one', () => {
    expect(userPolicy(null, { ratePerSecond: 20, burst: 40 })).toEqual({ ratePerSecond: 20, burst: 40 });
    expect(userPolicy(3, { ratePerSecond: 20, burst: 40 })).toEqual({ ratePerSecond: 3, burst: 6 });
  });
});

describe('the token bucket', () => {
  const policy = { ratePerSecond: 1, burst: 5 };

  it('admits exactly the burst at once, then refuses', () => {
    expect(sendMany(20, 0, policy).admitted).toEqual([...Array(5).fill(true), ...Array(15).fill(false)]);
  });

  it('refills one token per 1/rate seconds, never beyond the burst', () => {
    const { state } = sendMany(5, 0, policy);
    expect(send(state, SECOND - 1, policy).admitted).toBe(false);
    expect(send(state, SECOND, policy).admitted).toBe(true);
    expect(sendMany(3, 2.5 * SECOND, policy, state).admitted).toEqual([true, true, false]);
    // an hour idle fills the bucket to its burst, not more
    expect(sendMany(6, 3600 * SECOND, policy, state).admitted).toEqual([true, true, true, true, true, false]);
  });

  it('keeps the rate at a fractional interval (3 per second) without drifting', () => {
    const three = { ratePerSecond: 3, burst: 3 };
    const { state } = sendMany(3, 0, three);
    // 1/3 s later exactly one token is back, whatever the rounding of 1/3
    expect(sendMany(2, Math.ceil(SECOND / 3), three, state).admitted).toEqual([true, false]);
    expect(send(state, Math.floor(SECOND / 3), three).admitted).toBe(false);
  });

  it('counts the remaining tokens after each admission', () => {
    let state: BucketState | null = null;
    const remaining: number[] = [];
    for (let i = 0; i < 6; i++) {
      const sent = send(state, 0, policy);
      state = sent.state;
      remaining.push(sent.reading.remaining);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0, 0]);
  });

  it('rounds the wait for the next token up to whole seconds, at least 1', () => {
    const { state } = sendMany(5, 0, policy);
    expect(send(state, 0, policy).reading).toEqual({ remaining: 0, secondsToNextToken: 1 });
    expect(send(state, 1, policy).reading.secondsToNextToken).toBe(1);
    // one token every 4 s: a refused request waits 4 s, and still 3 s (rounded up) when 1.2 s have passed
    const slow = { ratePerSecond: 0.25, burst: 1 };
    const drained = send(null, 0, slow).state;
    expect(readBucket(backlogAt(drained, 0, slow), slow)).toEqual({ remaining: 0, secondsToNextToken: 4 });
    expect(readBucket(backlogAt(drained, 1.2 * SECOND, slow), slow)).toEqual({ remaining: 0, secondsToNextToken: 3 });
    // a full bucket: the burst is left, and a token taken now is back in 1/rate s
    expect(readBucket(0, policy)).toEqual({ remaining: 5, secondsToNextToken: 1 });
  });

  it('advertises the burst per refill window in the RateLimit fields', () => {
    expect(refillSeconds({ ratePerSecond: 20, burst: 40 })).toBe(2);
    expect(refillSeconds({ ratePerSecond: 3, burst: 10 })).toBe(4);
    expect(rateLimitFields({ ratePerSecond: 20, burst: 40 }, { remaining: 39, secondsToNextToken: 1 })).toEqual({
      'RateLimit-Policy': '"user";q=40;w=2',
      RateLimit: '"user";r=39;t=1',
    });
  });
});
