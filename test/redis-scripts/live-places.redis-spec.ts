import { takeLivePlace } from '../../src/redis/live-places.script';
import { scriptRedis } from '../support/script-redis';

const redis = scriptRedis();
const { client, other } = redis;

describe('takeLivePlace', () => {
  it('takes places up to max, answering how many were held before, then refuses', async () => {
    const places = redis.key('live', '{u1}');
    const now = Date.now();
    const answers = [];
    for (const jobId of ['j1', 'j2', 'j3', 'j4']) answers.push(await takeLivePlace.run(client, [places], [now, now + 60_000, 3, jobId]));
    expect(answers).toEqual([0, 1, 2, -1]);
    expect(await client.zrange(places, 0, -1)).toEqual(['j1', 'j2', 'j3']);
    expect(await client.zscore(places, 'j1')).toBe(String(now + 60_000));
  });

  it('drops lapsed places before counting', async () => {
    const places = redis.key('live', '{u1}');
    const now = Date.now();
    await client.zadd(places, now - 1, 'lapsed', now, 'lapsing-now', now + 1000, 'held');
    expect(await takeLivePlace.run(client, [places], [now, now + 60_000, 2, 'j1'])).toBe(1);
    expect(await client.zrange(places, 0, -1)).toEqual(['held', 'j1']);
  });

  it("expires the user's places when the last one lapses", async () => {
    const places = redis.key('live', '{u1}');
    const now = Date.now();
    await takeLivePlace.run(client, [places], [now, now + 60_000, 3, 'j1']);
    expect(await client.pexpiretime(places)).toBe(now + 60_000);
    expect(await takeLivePlace.run(client, [places], [now, now + 30_000, 0, 'j2'])).toBe(-1);
    expect(await client.pexpiretime(places)).toBe(now + 60_000);
  });

  it('gives exactly max places to many lookups taken at once from two connections', async () => {
    const places = redis.key('live', '{u1}');
    const now = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => takeLivePlace.run(index % 2 ? client : other, [places], [now, now + 60_000, 5, `j${index}`])),
    );
    expect(answers.filter((answer) => answer >= 0).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(await client.zcard(places)).toBe(5);
  });
});
