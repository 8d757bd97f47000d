import { setTimeout as sleep } from 'node:timers/promises';
import { holdDispatchLease, releaseDispatchLease } from '../../src/lookups/dispatch-lease.script';
import { scriptRedis } from '../support/script-redis';

const redis = scriptRedis();
const { client, other } = redis;

describe('holdDispatchLease', () => {
  it('takes a free lease for the holder, for leaseMs', async () => {
    const lease = redis.key('lease');
    expect(await holdDispatchLease.run(client, [lease], ['w1', 3000])).toBe(1);
    expect(await client.get(lease)).toBe('w1');
    expect(await client.pttl(lease)).toBeGreaterThan(2900);
  });

  it("refuses another holder's lease and renews the holder's own", async () => {
    const lease = redis.key('lease');
    await holdDispatchLease.run(client, [lease], ['w1', 3000]);
    expect(await holdDispatchLease.run(client, [lease], ['w2', 3000])).toBe(0);
    await client.pexpire(lease, 500);
    expect(await holdDispatchLease.run(client, [lease], ['w1', 3000])).toBe(1);
    expect(await client.get(lease)).toBe('w1');
    expect(await client.pttl(lease)).toBeGreaterThan(2900);
  });

  it('passes to another holder once the lease has lapsed', async () => {
    const lease = redis.key('lease');
    await holdDispatchLease.run(client, [lease], ['w1', 50]);
    await sleep(100);
    expect(await holdDispatchLease.run(client, [lease], ['w2', 3000])).toBe(1);
    expect(await client.get(lease)).toBe('w2');
  });

  it('gives the lease to exactly one of many holders asking at once', async () => {
    const lease = redis.key('lease');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) => holdDispatchLease.run(index % 2 ? client : other, [lease], [`w${index}`, 3000])),
    );
    expect(answers.filter((answer) => answer === 1)).toHaveLength(1);
    expect(await client.get(lease)).toBe(`w${answers.indexOf(1)}`);
  });
});

describe('releaseDispatchLease', () => {
  it("gives the holder's lease up", async () => {
    const lease = redis.key('lease');
    await holdDispatchLease.run(client, [lease], ['w1', 3000]);
    expect(await releaseDispatchLease.run(client, [lease], ['w1'])).toBe(1);
    expect(await client.exists(lease)).toBe(0);
  });

  it("leaves another holder's lease, and a free one, as they are", async () => {
    const lease = redis.key('lease');
    expect(await releaseDispatchLease.run(client, [lease], ['w1'])).toBe(0);
    await holdDispatchLease.run(client, [lease], ['w1', 3000]);
    expect(await releaseDispatchLease.run(client, [lease], ['w2'])).toBe(0);
    expect(await client.get(lease)).toBe('w1');
  });
});
