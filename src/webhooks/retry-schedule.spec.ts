import { delayBeforeNextAttemptMs, parseRetrySchedule } from './retry-schedule';

describe('retry schedule', () => {
  const schedule = parseRetrySchedule('0,5,300');

  it('reads the seconds before each attempt', () => {
    expect(schedule).toEqual([0, 5, 300]);
  });

  it('gives the delay before the next attempt, and none after the last', () => {
    expect(delayBeforeNextAttemptMs(schedule, 1)).toBe(5000);
    expect(delayBeforeNextAttemptMs(schedule, 2)).toBe(300_000);
    expect(delayBeforeNextAttemptMs(schedule, 3)).toBeNull();
  });
});
