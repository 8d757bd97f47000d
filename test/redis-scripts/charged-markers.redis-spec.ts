import { markCharged } from '../../src/quota/charged-markers.script';
import { scriptRedis } from '../support/script-redis';

const redis = scriptRedis();
const { client } = redis;

describe('markCharged', () => {
  it("marks each charge's number in its own hash, with the TTL", async () => {
    const [first, second] = [redis.key('charged', 'u1'), redis.key('charged', 'u2')];
    expect(await markCharged.run(client, [first, second, first], [3600, 'NUM-A', 'NUM-B', 'NUM-C'])).toBeNull();
    expect(await client.hgetall(first)).toEqual({ 'NUM-A': '1', 'NUM-C': '1' });
    expect(await client.hgetall(second)).toEqual({ 'NUM-B': '1' });
    expect(await client.ttl(first)).toBeGreaterThan(3595);
    expect(await client.ttl(second)).toBeGreaterThan(3595);
  });

  it('keeps the numbers marked before and renews the TTL', async () => {
    const markers = redis.key('charged', 'u1');
    await markCharged.run(client, [markers], [3600, 'NUM-A']);
    await client.expire(markers, 10);
    await markCharged.run(client, [markers, markers], [3600, 'NUM-A', 'NUM-B']);
    expect(await client.hgetall(markers)).toEqual({ 'NUM-A': '1', 'NUM-B': '1' });
    expect(await client.ttl(markers)).toBeGreaterThan(3595);
  });
});
