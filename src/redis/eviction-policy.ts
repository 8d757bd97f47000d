/** The only maxmemory-policy under which Redis never drops keys to make room (it refuses writes instead). */
export const SAFE_MAXMEMORY_POLICY = 'noeviction';

/**
 * The warning to log for the `INFO memory` answer of the Redis we use, or null when its policy keeps
 * every key. Redis holds the queues, the payers of lookups and the idempotency records; BullMQ's
 * production guide asks for noeviction, since an evicted job or payer is lost without any error.
 */
export function describeEvictionPolicy(infoMemory: string): string | null {
  const policy = /^maxmemory_policy:(\S+)/m.exec(infoMemory)?.[1];
  if (policy === undefined) return 'Redis did not report its maxmemory-policy: make sure it is noeviction, or queued jobs may be evicted';
  if (policy === SAFE_MAXMEMORY_POLICY) return null;
  return `Redis maxmemory-policy is ${policy}: under memory pressure it evicts queued jobs, payers and idempotency records; set it to noeviction`;
}
