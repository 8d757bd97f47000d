import { countWaitingLookups } from '../../src/lookups/waiting-lookups.script';
import { scriptRedis } from '../support/script-redis';

const redis = scriptRedis();
const { client, other } = redis;

const batchList = () => redis.key('pending', '{u1}', 'p5');
const recheckList = () => redis.key('pending', '{u1}', 'p10');
const holds = () => redis.key('pending', '{u1}', 'reserved');
const keys = () => [batchList(), recheckList(), holds()] as [string, string, string];

describe('countWaitingLookups', () => {
  it('counts both lists and the places held, and holds nothing when asked for no places', async () => {
    const now = Date.now();
    await client.rpush(batchList(), 'b1', 'b2');
    await client.rpush(recheckList(), 'r1');
    await client.zadd(holds(), now + 1000, 'x:4', now + 1000, 'y:10');
    expect(await countWaitingLookups.run(client, keys(), [now, 0, 0, now + 60_000, ''])).toEqual([2, 1, 14, 0]);
    expect(await client.zcard(holds())).toBe(2);
  });

  it('holds the places when the count stays within max, until they lapse', async () => {
    const now = Date.now();
    await client.rpush(batchList(), 'b1');
    expect(await countWaitingLookups.run(client, keys(), [now, 4, 5, now + 60_000, 'h1:4'])).toEqual([1, 0, 0, 1]);
    expect(await client.zscore(holds(), 'h1:4')).toBe(String(now + 60_000));
    expect(await client.pexpiretime(holds())).toBe(now + 60_000);
    expect(await countWaitingLookups.run(client, keys(), [now, 0, 0, now + 60_000, ''])).toEqual([1, 0, 4, 0]);
  });

  it('refuses places that would take the count past max, and holds none of them', async () => {
    const now = Date.now();
    await client.rpush(recheckList(), 'r1', 'r2');
    await client.zadd(holds(), now + 1000, 'h1:2');
    expect(await countWaitingLookups.run(client, keys(), [now, 2, 5, now + 60_000, 'h2:2'])).toEqual([0, 2, 2, 0]);
    expect(await client.zrange(holds(), 0, -1)).toEqual(['h1:2']);
    expect(await countWaitingLookups.run(client, keys(), [now, 1, 5, now + 60_000, 'h3:1'])).toEqual([0, 2, 2, 1]);
  });

  it('drops lapsed holds before counting', async () => {
    const now = Date.now();
    await client.zadd(holds(), now - 1, 'old:7', now, 'now:3', now + 1, 'live:2');
    expect(await countWaitingLookups.run(client, keys(), [now, 0, 0, now + 60_000, ''])).toEqual([0, 0, 2, 0]);
    expect(await client.zrange(holds(), 0, -1)).toEqual(['live:2']);
  });

  it('never lets requests racing for the last places pass the bound together', async () => {
    const now = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) => countWaitingLookups.run(index % 2 ? client : other, keys(), [now, 3, 10, now + 60_000, `h${index}:3`])),
    );
    expect(answers.filter(([, , , held]) => held === 1)).toHaveLength(3);
    expect(await client.zcard(holds())).toBe(3);
  });
});
