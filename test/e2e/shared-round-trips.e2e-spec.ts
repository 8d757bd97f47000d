import { randomUUID } from 'node:crypto';
import { QuotaService } from '../../src/quota/quota.service';
import { IdempotencyStore } from '../../src/verification/idempotency-store';
import { resultCacheKey } from '../support/result-cache-key';
import { startTestApp, TestApp } from '../support/test-app';

/** Distinct 16-digit numbers the sandbox answers with its not-found page. */
const unknownNumber = (index: number) => `19${String(index).padStart(14, '0')}`;

const WRONG_TYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';

/**
 * The calls of one event-loop turn share a statement or a script call (QuotaService, IdempotencyStore). The calls
 * below are made in one turn, so they share one; the one that cannot succeed must fail alone.
 */
describe('requests that share a round trip', () => {
  let t: TestApp;
  let quota: QuotaService;

  beforeAll(async () => {
    t = await startTestApp();
    quota = t.app.get(QuotaService);
  });
  afterAll(() => t.close());

  async function twoUsers(monthlyQuota: number) {
    return Promise.all(
      [1, 2].map(async () => ({
        userId: (await t.createKey({ quota: monthlyQuota })).userId,
        keyId: 'n/a',
        mode: 'live' as const,
        role: 'admin' as const,
        monthlyQuota,
      })),
    );
  }

  it("charges the others of a turn when one user's charge breaks a constraint, and charges the failed one nothing", async () => {
    const [first, second] = await twoUsers(5);
    // A well-formed id that no user has: its quota rows would break the foreign key to users.
    const ghost = { userId: randomUUID(), keyId: 'n/a', mode: 'live' as const, role: 'admin' as const, monthlyQuota: 5 };
    const outcomes = await Promise.allSettled([
      quota.chargeOnce(first, unknownNumber(1)),
      quota.chargeOnce(ghost, unknownNumber(2)),
      quota.chargeOnce(second, unknownNumber(3)),
    ]);

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: '23503' });
    expect(outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value.isNew] : []))).toEqual([true, true]);
    const charged = await t.db.query<{ user_id: string; licence_number: string }>(
      'SELECT user_id, licence_number FROM quota_charges WHERE user_id = ANY($1) ORDER BY licence_number',
      [[first.userId, second.userId, ghost.userId]],
    );
    expect(charged.rows).toEqual([
      { user_id: first.userId, licence_number: unknownNumber(1) },
      { user_id: second.userId, licence_number: unknownNumber(3) },
    ]);
  });

  it('answers the other usage reads of a turn when one user id cannot be read', async () => {
    const [first, second] = await twoUsers(5);
    await quota.chargeOnce(second, unknownNumber(10));
    const outcomes = await Promise.allSettled([
      quota.usage(first),
      quota.usage({ userId: 'not-a-uuid', keyId: 'n/a', mode: 'live' as const, role: 'admin' as const, monthlyQuota: 5 }),
      quota.usage(second),
    ]);

    const period = quota.currentPeriod();
    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: { period, used: 0, quota: 5, remaining: 5 } });
    expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: { code: '22P02' } });
    expect(outcomes[2]).toEqual({ status: 'fulfilled', value: { period, used: 1, quota: 5, remaining: 4 } });
  });

  it("writes the other charged markers of a turn when one user's markers key holds another type", async () => {
    const [first, second] = await twoUsers(5);
    const period = quota.currentPeriod();
    await t.redis.set(quota.chargedMarkersKey(second.userId, period), 'not a hash');
    const charges = [first, second].map((user, index) => ({
      userId: user.userId,
      period,
      licenceNumber: unknownNumber(20 + index),
      isNew: true,
      chargeId: randomUUID(),
    }));
    const outcomes = await Promise.allSettled(charges.map((charge) => quota.markCharged(charge)));

    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: undefined });
    expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: { message: expect.stringContaining('WRONGTYPE') } });
    expect(await t.redis.hgetall(quota.chargedMarkersKey(first.userId, period))).toEqual({ [unknownNumber(20)]: '1' });
  });

  it("claims the other idempotency keys of a turn when one claim's script step fails", async () => {
    const [first, second] = await twoUsers(5);
    const period = quota.currentPeriod();
    await t.redis.set(quota.chargedMarkersKey(second.userId, period), 'not a hash');
    const store = t.app.get(IdempotencyStore);
    const cacheKey = (licenceNumber: string) => resultCacheKey(t.redisPrefix, t.env.REGISTER_URL, licenceNumber);
    const outcomes = await Promise.allSettled([
      store.claim(first.userId, 'key-1', unknownNumber(30), period, cacheKey(unknownNumber(30))),
      store.claim(second.userId, 'key-2', unknownNumber(31), period, cacheKey(unknownNumber(31))),
      store.claim(first.userId, 'key-3', unknownNumber(32), period, cacheKey(unknownNumber(32))),
    ]);

    const claimed = (licenceNumber: string) => ({
      status: 'fulfilled',
      value: { licenceNumber, jobId: null, chargedThisPeriod: false, cached: null },
    });
    expect(outcomes[0]).toEqual(claimed(unknownNumber(30)));
    expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: { message: WRONG_TYPE } });
    expect(outcomes[2]).toEqual(claimed(unknownNumber(32)));
    // The keys that were claimed stay bound to their numbers.
    expect(await store.claim(first.userId, 'key-1', unknownNumber(99), period, cacheKey(unknownNumber(99)))).toMatchObject({
      licenceNumber: unknownNumber(30),
    });
  });
});
