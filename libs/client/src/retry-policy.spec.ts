import { parseRetryAfter, retryDelayMs, RetrySettings } from './retry-policy';

const settings: RetrySettings = { maxRetries: 3, baseDelayMs: 200, random: () => 1 };

describe('retryDelayMs', () => {
  it('waits Retry-After on 429 RATE_LIMITED and on 503', () => {
    expect(retryDelayMs({ status: 429, code: 'RATE_LIMITED', retryAfterSeconds: 2 }, 1, settings)).toBe(2000);
    expect(retryDelayMs({ status: 503, code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 1 }, 2, settings)).toBe(1000);
  });

  it('backs off exponentially with full jitter on network errors and 502, and on a 503 without Retry-After', () => {
    expect([1, 2, 3].map((retry) => retryDelayMs({ networkError: true }, retry, settings))).toEqual([200, 400, 800]);
    expect(retryDelayMs({ status: 502, code: 'PARSE_ERROR' }, 3, settings)).toBe(800);
    expect(retryDelayMs({ status: 503 }, 1, settings)).toBe(200);
    expect(retryDelayMs({ networkError: true }, 3, { ...settings, random: () => 0.5 })).toBe(400);
    expect(retryDelayMs({ networkError: true }, 2, { ...settings, random: () => 0 })).toBe(0);
  });

  it('never retries more than maxRetries times', () => {
    expect(retryDelayMs({ networkError: true }, 4, settings)).toBeNull();
    expect(retryDelayMs({ status: 429, code: 'RATE_LIMITED', retryAfterSeconds: 1 }, 1, { ...settings, maxRetries: 0 })).toBeNull();
  });

  it.each([
    [429, 'QUOTA_EXCEEDED'],
    [400, 'VALIDATION_ERROR'],
    [401, 'UNAUTHORIZED'],
    [403, 'TEST_MODE_ONLY'],
    [404, 'BATCH_NOT_FOUND'],
    [404, undefined],
    [409, undefined],
    [500, 'INTERNAL_ERROR'],
    [200, undefined],
    [202, undefined],
  ])('never retries %s %s', (status, code) => {
    expect(retryDelayMs({ status, code, retryAfterSeconds: 1 }, 1, settings)).toBeNull();
  });
});

describe('parseRetryAfter', () => {
  it('reads whole seconds and nothing else', () => {
    expect([parseRetryAfter('3'), parseRetryAfter(' 0 '), parseRetryAfter(null), parseRetryAfter('soon'), parseRetryAfter('1.5')]).toEqual([
      3,
      0,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
