import { describeEvictionPolicy } from './eviction-policy';

/** An INFO memory answer as Redis 7 writes it: CRLF line ends, the policy among other fields. */
const infoWith = (policy: string) => `# Memory\r\nused_memory:1048576\r\nmaxmemory:0\r\nmaxmemory_policy:${policy}\r\nallocator_frag_ratio:1.01\r\n`;

describe('describeEvictionPolicy', () => {
  it('keeps quiet for noeviction', () => {
    expect(describeEvictionPolicy(infoWith('noeviction'))).toBeNull();
  });

  it.each(['allkeys-lru', 'allkeys-lfu', 'allkeys-random', 'volatile-lru', 'volatile-lfu', 'volatile-random', 'volatile-ttl'])(
    'warns about %s, naming it',
    (policy) => {
      expect(describeEvictionPolicy(infoWith(policy))).toBe(
        `Redis maxmemory-policy is ${policy}: under memory pressure it evicts queued jobs, payers and idempotency records; set it to noeviction`,
      );
    },
  );

  it('warns when the answer has no policy (a server or proxy that hides it)', () => {
    expect(describeEvictionPolicy('# Memory\r\nused_memory:1048576\r\n')).toBe(
      'Redis did not report its maxmemory-policy: make sure it is noeviction, or queued jobs may be evicted',
    );
  });
});
