import { Injectable } from '@nestjs/common';
import { RedisStore } from '../redis/redis.module';
import { claimRefund, withdrawPayers } from './job-payers.script';
import type { Charge } from '../quota/quota.service';

// A bound, not the usual life: the records go when their job is settled, but a job may wait for workers.
const PAYERS_TTL_SECONDS = 2 * 24 * 3600;

/** One member per charge, whatever its object's key order: intend, add and dropIntent must name the same one. */
function intentMember({ userId, period, licenceNumber, chargeId }: Charge): string {
  return JSON.stringify({ userId, period, licenceNumber, isNew: true, chargeId });
}

export type RefundClaim = { outcome: 'claimed'; charges: Charge[] } | { outcome: 'busy' | 'settled' };

/**
 * The new charges that wait on one lookup job, so that whichever process sees the job fail
 * refunds each of them, even for clients that went away after a 202. An index of unsettled jobs
 * (score: when to look at the job next) lets a sweep find the ones whose failure nobody saw.
 */
@Injectable()
export class LookupPayers {
  private readonly index: string;
  private readonly intents: string;

  constructor(private readonly redis: RedisStore) {
    this.index = redis.key('payers-index');
    this.intents = redis.key('charge-intents');
  }

  /**
   * Records, before a charge is made, that it is to be refunded unless its payer record follows within `leaseMs`:
   * a process that dies between the charge and add() so leaves the charge to the sweep (dueIntents), not to the
   * client. Refunds go by the charge's id, so refunding one that was never made, or made and refunded already,
   * changes nothing.
   */
  async intend(charge: Charge, leaseMs: number): Promise<void> {
    await this.redis.client.zadd(this.intents, Date.now() + leaseMs, intentMember(charge));
  }

  /** The intent needs no refund (the charge failed, was a repeat, or was refunded by its own request). */
  async dropIntent(charge: Charge): Promise<void> {
    await this.redis.client.zrem(this.intents, intentMember(charge));
  }

  /** Up to `limit` intents whose payer record never came: their charges are to be refunded, then dropped. */
  async dueIntents(limit: number): Promise<Charge[]> {
    const members = await this.redis.client.zrangebyscore(this.intents, '-inf', Date.now(), 'LIMIT', 0, limit);
    return members.map((member) => JSON.parse(member) as Charge);
  }

  /** The charge now waits on the job; its intent, if any, is fulfilled in the same transaction. */
  async add(jobId: string, charge: Charge): Promise<void> {
    const key = this.payersKey(jobId);
    await this.redis.client
      .multi()
      .sadd(key, JSON.stringify(charge))
      .expire(key, PAYERS_TTL_SECONDS)
      .zadd(this.index, 'NX', Date.now(), jobId)
      .zrem(this.intents, intentMember(charge))
      .exec();
  }

  /** The user's charges waiting on the job, taken out of its payers: the caller refunds them. */
  async withdraw(jobId: string, userId: string): Promise<Charge[]> {
    const members = await withdrawPayers.run(this.redis.client, [this.payersKey(jobId)], [userId]);
    return members.map((member) => JSON.parse(member) as Charge);
  }

  /** After a successful lookup its payers owe what they paid: nothing left to remember. */
  async forget(jobId: string): Promise<void> {
    await this.redis.client.multi().del(this.payersKey(jobId)).zrem(this.index, jobId).exec();
  }

  /** The charges to refund for a failed job, leased to this caller for leaseMs; see the claimRefund script. */
  async claimRefund(jobId: string, leaseMs: number): Promise<RefundClaim> {
    const now = Date.now();
    const [outcome, ...claimed] = await claimRefund.run(
      this.redis.client,
      [this.payersKey(jobId), this.refundingKey(jobId), this.index],
      [jobId, now + leaseMs, now, PAYERS_TTL_SECONDS],
    );
    if (outcome === 'claimed') return { outcome, charges: claimed.map((member) => JSON.parse(member) as Charge) };
    return { outcome };
  }

  /** Every claimed charge is refunded: the job is settled. */
  async refunded(jobId: string): Promise<void> {
    await this.redis.client.multi().del(this.refundingKey(jobId)).zrem(this.index, jobId).exec();
  }

  /** Up to `limit` unsettled jobs due for a look (score at or before now). */
  due(limit: number): Promise<string[]> {
    return this.redis.client.zrangebyscore(this.index, '-inf', Date.now(), 'LIMIT', 0, limit);
  }

  /** Look at the job again (sweep) after `delayMs`: one still running, or a refund that failed (0 ends its lease). */
  async postpone(jobId: string, delayMs: number): Promise<void> {
    await this.redis.client.zadd(this.index, 'XX', Date.now() + delayMs, jobId);
  }

  private payersKey(jobId: string): string {
    return this.redis.key('payers', jobId);
  }

  private refundingKey(jobId: string): string {
    return this.redis.key('refunding', jobId);
  }
}
