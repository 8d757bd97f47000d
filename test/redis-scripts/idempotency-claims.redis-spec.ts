import { claimIdempotencyKeys } from '../../src/verification/idempotency-claims.script';
import { scriptRedis } from '../support/script-redis';

const redis = scriptRedis();
const { client } = redis;

/** The three keys of one claim: idempotency record, charged markers, cached result. */
const keysOf = (name: string) => [redis.key('record', name), redis.key('charged', name), redis.key('cached', name)];

describe('claimIdempotencyKeys', () => {
  it('binds a new key to its number and answers no job, no charge and no cached result', async () => {
    const replies = await claimIdempotencyKeys.run(client, keysOf('a'), [600, 'NUM-A']);
    expect(replies).toEqual([['NUM-A', null, 0, null]]);
    expect(await client.hgetall(redis.key('record', 'a'))).toEqual({ licenceNumber: 'NUM-A' });
    expect(await client.ttl(redis.key('record', 'a'))).toBeGreaterThan(595);
    expect(await client.exists(redis.key('charged', 'a'), redis.key('cached', 'a'))).toBe(0);
  });

  it('keeps the first number of a key: a claim with another number answers the bound one', async () => {
    await claimIdempotencyKeys.run(client, keysOf('a'), [600, 'NUM-A']);
    expect(await claimIdempotencyKeys.run(client, keysOf('a'), [600, 'NUM-B'])).toEqual([['NUM-A', null, 0, null]]);
    expect(await client.hget(redis.key('record', 'a'), 'licenceNumber')).toBe('NUM-A');
  });

  it("answers the key's job, the asked number's charged marker and the cached result", async () => {
    const [record, markers, cached] = keysOf('a');
    await client.hset(record, 'licenceNumber', 'NUM-A', 'jobId', 'job-1');
    await client.hset(markers, 'NUM-A', '1');
    await client.set(cached, '{"status":"FOUND"}');
    expect(await claimIdempotencyKeys.run(client, keysOf('a'), [600, 'NUM-A'])).toEqual([['NUM-A', 'job-1', 1, '{"status":"FOUND"}']]);
    // The marker is looked up for the number asked, not the one the key is bound to.
    expect(await claimIdempotencyKeys.run(client, keysOf('a'), [600, 'NUM-B'])).toEqual([['NUM-A', 'job-1', 0, '{"status":"FOUND"}']]);
  });

  it('sets the TTL of a new record only: a repeat claim leaves the running one', async () => {
    await claimIdempotencyKeys.run(client, keysOf('a'), [600, 'NUM-A']);
    await client.expire(redis.key('record', 'a'), 30);
    await claimIdempotencyKeys.run(client, keysOf('a'), [600, 'NUM-A']);
    const ttl = await client.ttl(redis.key('record', 'a'));
    expect(ttl).toBeGreaterThan(25);
    expect(ttl).toBeLessThanOrEqual(30);
  });

  it('answers the claims of one call in order, each for its own keys', async () => {
    await client.hset(redis.key('charged', 'b'), 'NUM-B', '1');
    const replies = await claimIdempotencyKeys.run(client, [...keysOf('a'), ...keysOf('b'), ...keysOf('c')], [600, 'NUM-A', 'NUM-B', 'NUM-C']);
    expect(replies).toEqual([
      ['NUM-A', null, 0, null],
      ['NUM-B', null, 1, null],
      ['NUM-C', null, 0, null],
    ]);
  });

  it("answers a failing claim's error in its place and still runs the others", async () => {
    await client.set(redis.key('record', 'b'), 'not a hash');
    const replies = await claimIdempotencyKeys.run(client, [...keysOf('a'), ...keysOf('b'), ...keysOf('c')], [600, 'NUM-A', 'NUM-B', 'NUM-C']);
    expect(replies).toHaveLength(3);
    expect(replies[0]).toEqual(['NUM-A', null, 0, null]);
    expect(replies[1]).toBeInstanceOf(Error);
    expect((replies[1] as Error).message).toMatch(/^WRONGTYPE/);
    expect(replies[2]).toEqual(['NUM-C', null, 0, null]);
    expect(await client.hget(redis.key('record', 'c'), 'licenceNumber')).toBe('NUM-C');
  });

  it('answers nothing for no claims', async () => {
    expect(await claimIdempotencyKeys.run(client, [], [600])).toEqual([]);
  });
});
