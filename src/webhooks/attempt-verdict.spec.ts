import { AttemptOutcome, judgeAttempt } from './attempt-verdict';

const startedAt = new Date('2026-11-22T10:00:00Z');
const schedule = [0, 5, 300];
const answered = (responseStatus: number): AttemptOutcome => ({ responseStatus, error: null, refused: false });
const judge = (outcome: AttemptOutcome, failingSince: Date | null = null, attemptsMade = 0) =>
  judgeAttempt({ outcome, startedAt, failingSince, schedule, attemptsMade });

describe('judgeAttempt', () => {
  it('counts 2xx as delivered and clears the failing streak', () => {
    expect(judge(answered(204), new Date('2026-11-21T10:00:00Z'))).toEqual({
      delivered: true,
      deliveryStatus: 'DELIVERED',
      retryInMs: null,
      failingSince: null,
      disableReason: null,
    });
  });

  it('retries other answers and network errors on the schedule, starting the failing streak now', () => {
    expect(judge(answered(500))).toEqual({ delivered: false, deliveryStatus: 'PENDING', retryInMs: 5000, failingSince: startedAt, disableReason: null });
    expect(judge({ responseStatus: null, error: 'ECONNREFUSED', refused: false }, null, 1)).toMatchObject({
      deliveryStatus: 'PENDING',
      retryInMs: 300_000,
    });
    expect(judge(answered(302))).toMatchObject({ deliveryStatus: 'PENDING' });
  });

  it('fails the delivery when the schedule has no attempt left', () => {
    expect(judge(answered(500), null, 2)).toMatchObject({ deliveryStatus: 'FAILED', retryInMs: null, disableReason: null });
  });

  it('disables the endpoint on 410, without a retry', () => {
    expect(judge(answered(410))).toMatchObject({ deliveryStatus: 'FAILED', retryInMs: null, disableReason: 'GONE' });
  });

  it('disables the endpoint once it has failed for 3 days, and not a second before', () => {
    const since = new Date(startedAt.getTime() - 3 * 86_400_000);
    expect(judge(answered(500), since)).toMatchObject({ deliveryStatus: 'FAILED', failingSince: since, disableReason: 'FAILING_FOR_3_DAYS' });
    const later = new Date(since.getTime() + 1000);
    expect(judge(answered(500), later)).toMatchObject({ deliveryStatus: 'PENDING', failingSince: later, disableReason: null });
  });

  it('fails a delivery to an address the guard refuses at once, without retries or disabling', () => {
    expect(judge({ responseStatus: null, error: 'url refused: scheme', refused: true })).toEqual({
      delivered: false,
      deliveryStatus: 'FAILED',
      retryInMs: null,
      failingSince: startedAt,
      disableReason: null,
    });
  });
});
