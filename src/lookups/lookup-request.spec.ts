import type { Charge } from '../quota/quota.service';
import { cachedAnswers, CachePolicy, LookupRequest, paymentOf, readsCache, refreshes } from './lookup-request';
import { numberSubject } from './lookup-subject';

const checkedAt = '2026-11-29T08:00:00.000Z';

describe('a lookup request’s cache policy', () => {
  it('reads the cache unless the caller has just read it or wants the register’s answer', () => {
    const read: Record<string, boolean> = {};
    for (const cache of ['use', 'read', 'bypass'] as const) read[cache] = readsCache(cache);
    expect(read).toEqual({ use: true, read: false, bypass: false });
    expect(readsCache({ newerThan: null })).toBe(true);
  });

  it('takes any cached result under `use`, and under `newerThan` only one checked strictly after that time', () => {
    expect(cachedAnswers('use', checkedAt)).toBe(true);
    expect(cachedAnswers({ newerThan: new Date('2026-11-29T07:59:59.999Z') }, checkedAt)).toBe(true);
    expect(cachedAnswers({ newerThan: new Date(checkedAt) }, checkedAt)).toBe(false);
    expect(cachedAnswers({ newerThan: null }, checkedAt)).toBe(false);
  });

  it('sends the job to the register past the cache only when the caller wants a newer answer than the cached one', () => {
    const policies: CachePolicy[] = ['use', 'read', 'bypass', { newerThan: null }];
    expect(policies.map(refreshes)).toEqual([false, false, true, true]);
  });
});

describe('paymentOf', () => {
  const base = { subject: numberSubject('1011001544208079'), user: { userId: 'u1', monthlyQuota: null } };
  const earlier: Charge = { userId: 'u1', period: '2026-11', licenceNumber: '1011001544208079', isNew: true, chargeId: 'c1' };
  const live = (payment: 'charge' | Charge | null): LookupRequest => ({ ...base, kind: 'live', deadline: 0, requestId: 'r', cache: 'use', payment });

  it('charges a live lookup now only when it asks to, and otherwise lets its earlier charge wait on the job', () => {
    expect(paymentOf(live('charge'))).toEqual({ chargeNow: true, payer: null });
    expect(paymentOf(live(earlier))).toEqual({ chargeNow: false, payer: earlier });
    expect(paymentOf(live(null))).toEqual({ chargeNow: false, payer: null });
  });

  it("lets a roster row's charge wait on its job, and charges a re-check nothing", () => {
    expect(paymentOf({ ...base, kind: 'batch', cache: 'use', payer: earlier, onQueued: () => Promise.resolve() })).toEqual({
      chargeNow: false,
      payer: earlier,
    });
    expect(paymentOf({ ...base, kind: 'recheck', deadline: 0, cache: 'bypass' })).toEqual({ chargeNow: false, payer: null });
  });
});
