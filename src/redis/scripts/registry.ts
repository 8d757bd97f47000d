import type { RedisClient } from '../redis-client-type';
import { recordAnswers } from './answer-records';
import { authBlockedFor, countAuthAttempt, forgiveAuthAttempt } from './auth-failures';
import { markCharged } from './charged-markers';
import { compareAndSet } from './compare-and-set';
import { admitDateOfBirth } from './date-of-birth-checks';
import { holdDispatchLease, releaseDispatchLease } from './dispatch-lease';
import { releaseEndpointLease, takeEndpointLease } from './endpoint-leases';
import { claimIdempotencyKeys } from './idempotency-claims';
import { claimRefund, withdrawPayers } from './job-payers';
import { takeLivePlace } from './live-places';
import { takeManualSend } from './manual-sends';
import { takeRateTokens } from './rate-tokens';
import { countWaitingLookups } from './waiting-lookups';

/** Every Lua script of the service; each file beside this one holds a script, its keys and its reply. */
export const REDIS_SCRIPTS = [
  admitDateOfBirth,
  authBlockedFor,
  claimIdempotencyKeys,
  claimRefund,
  compareAndSet,
  countAuthAttempt,
  countWaitingLookups,
  forgiveAuthAttempt,
  holdDispatchLease,
  markCharged,
  recordAnswers,
  releaseDispatchLease,
  releaseEndpointLease,
  takeEndpointLease,
  takeLivePlace,
  takeManualSend,
  takeRateTokens,
  withdrawPayers,
] as const;

/** Defines every script on the client (a server, a Sentinel primary or a cluster), once, when the client is made. */
export function defineScripts<Client extends RedisClient>(client: Client): Client {
  for (const { name, lua, numberOfKeys } of REDIS_SCRIPTS) client.defineCommand(name, { lua, numberOfKeys: numberOfKeys ?? undefined });
  return client;
}
