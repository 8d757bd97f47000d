import { setTimeout as sleep } from 'node:timers/promises';
import { releaseEndpointLease, takeEndpointLease } from '../../src/webhooks/endpoint-leases.script';
import { redisTimeMs, scriptRedis } from '../support/script-redis';

const redis = scriptRedis();
const { client, other } = redis;

const leases = () => redis.key('webhooks', 'in-flight', '{u1}', 'e1');
const waiting = () => redis.key('webhooks', 'waiting', '{u1}', 'e1');
const keys = () => [leases(), waiting()] as [string, string];

describe('takeEndpointLease', () => {
  it('gives up to limit leases, each ending leaseMs from Redis time', async () => {
    const before = await redisTimeMs(client);
    expect(await takeEndpointLease.run(client, keys(), [30_000, 2, 'job-a'])).toBe(-1);
    expect(await takeEndpointLease.run(client, keys(), [30_000, 2, 'job-b'])).toBe(-1);
    const after = await redisTimeMs(client);
    const ends = await client.zrange(leases(), 0, -1, 'WITHSCORES');
    expect(ends.filter((_, index) => index % 2 === 0)).toEqual(['job-a', 'job-b']);
    for (const end of ends.filter((_, index) => index % 2 === 1).map(Number)) {
      expect(end).toBeGreaterThanOrEqual(before + 30_000);
      expect(end).toBeLessThanOrEqual(after + 30_000);
    }
    expect(await client.pttl(leases())).toBeGreaterThan(29_000);
  });

  it('queues a holder past the limit once, and answers the milliseconds until the first lease ends', async () => {
    await takeEndpointLease.run(client, keys(), [30_000, 2, 'job-a']);
    await takeEndpointLease.run(client, keys(), [30_000, 2, 'job-b']);
    const wait = await takeEndpointLease.run(client, keys(), [30_000, 2, 'job-c']);
    expect(wait).toBeGreaterThan(29_000);
    expect(wait).toBeLessThanOrEqual(30_000);
    await takeEndpointLease.run(client, keys(), [30_000, 2, 'job-d']);
    await takeEndpointLease.run(client, keys(), [30_000, 2, 'job-c']);
    expect(await client.lrange(waiting(), 0, -1)).toEqual(['job-d', 'job-c']);
    expect(await client.pttl(waiting())).toBeGreaterThan(29_000);
  });

  it('renews a holder that has a lease, even at the limit', async () => {
    await takeEndpointLease.run(client, keys(), [30_000, 2, 'job-a']);
    await takeEndpointLease.run(client, keys(), [30_000, 2, 'job-b']);
    const first = Number(await client.zscore(leases(), 'job-a'));
    await sleep(5);
    expect(await takeEndpointLease.run(client, keys(), [30_000, 2, 'job-a'])).toBe(-1);
    expect(Number(await client.zscore(leases(), 'job-a'))).toBeGreaterThan(first);
    expect(await client.zcard(leases())).toBe(2);
  });

  it('drops ended leases, so that a waiting holder takes their slot and leaves the queue', async () => {
    await takeEndpointLease.run(client, keys(), [50, 1, 'job-a']);
    expect(await takeEndpointLease.run(client, keys(), [50, 1, 'job-b'])).toBeGreaterThanOrEqual(0);
    await sleep(60);
    expect(await takeEndpointLease.run(client, keys(), [30_000, 1, 'job-b'])).toBe(-1);
    expect(await client.zrange(leases(), 0, -1)).toEqual(['job-b']);
    expect(await client.llen(waiting())).toBe(0);
  });

  it('gives exactly limit leases to many deliveries asking at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) => takeEndpointLease.run(index % 2 ? client : other, keys(), [30_000, 2, `job-${index}`])),
    );
    expect(answers.filter((answer) => answer === -1)).toHaveLength(2);
    expect(await client.zcard(leases())).toBe(2);
    expect(await client.llen(waiting())).toBe(8);
  });
});

describe('releaseEndpointLease', () => {
  it("ends the holder's lease and answers the oldest waiting delivery, taken out of the queue", async () => {
    await takeEndpointLease.run(client, keys(), [30_000, 1, 'job-a']);
    await takeEndpointLease.run(client, keys(), [30_000, 1, 'job-b']);
    await takeEndpointLease.run(client, keys(), [30_000, 1, 'job-c']);
    expect(await releaseEndpointLease.run(client, keys(), ['job-a'])).toBe('job-b');
    expect(await client.zcard(leases())).toBe(0);
    expect(await client.lrange(waiting(), 0, -1)).toEqual(['job-c']);
  });

  it('answers null when no delivery waits', async () => {
    await takeEndpointLease.run(client, keys(), [30_000, 1, 'job-a']);
    expect(await releaseEndpointLease.run(client, keys(), ['job-a'])).toBeNull();
    expect(await releaseEndpointLease.run(client, keys(), ['job-a'])).toBeNull();
  });
});
