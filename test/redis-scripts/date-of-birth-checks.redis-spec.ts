import { admitDatesOfBirth } from '../../src/holders/date-of-birth-checks.script';
import { scriptRedis } from '../support/script-redis';

const redis = scriptRedis();
const { client, other } = redis;

/** One check in a call of its own, as a turn with a single verify-holder makes it. */
async function admitOne(dates: string, digest: string, max: number, ttlSeconds = 3600, on = client): Promise<0 | 1 | Error> {
  const [reply] = await admitDatesOfBirth.run(on, [dates], [max, ttlSeconds, digest]);
  return reply;
}

describe('admitDatesOfBirth', () => {
  it('admits new dates while fewer than max are counted, then refuses new ones', async () => {
    const dates = redis.key('dob');
    const answers = [];
    for (const digest of ['d1', 'd2', 'd3', 'd4']) answers.push(await admitOne(dates, digest, 3));
    expect(answers).toEqual([1, 1, 1, 0]);
    expect((await client.smembers(dates)).sort()).toEqual(['d1', 'd2', 'd3']);
  });

  it('admits a date counted before again, even when the set is full, without counting it twice', async () => {
    const dates = redis.key('dob');
    await admitOne(dates, 'd1', 2);
    await admitOne(dates, 'd2', 2);
    expect(await admitOne(dates, 'd1', 2)).toBe(1);
    expect(await client.scard(dates)).toBe(2);
  });

  it('sets the TTL when it adds a date, and leaves it when a known date comes again', async () => {
    const dates = redis.key('dob');
    await admitOne(dates, 'd1', 3);
    expect(await client.ttl(dates)).toBeGreaterThan(3595);
    await client.expire(dates, 100);
    await admitOne(dates, 'd1', 3);
    expect(await client.ttl(dates)).toBeLessThanOrEqual(100);
    await admitOne(dates, 'd2', 3);
    expect(await client.ttl(dates)).toBeGreaterThan(3595);
  });

  it('admits no new date with a max of 0', async () => {
    expect(await admitOne(redis.key('dob'), 'd1', 0)).toBe(0);
    expect(await client.exists(redis.key('dob'))).toBe(0);
  });

  it('runs the checks of one call in order, each set on its own: as many calls one after the other would', async () => {
    const [first, second] = [redis.key('dob-1'), redis.key('dob-2')];
    const replies = await admitDatesOfBirth.run(client, [first, second, first, first, second], [2, 3600, 'd1', 'd1', 'd2', 'd3', 'd2']);
    expect(replies).toEqual([1, 1, 1, 0, 1]);
    expect((await client.smembers(first)).sort()).toEqual(['d1', 'd2']);
    expect((await client.smembers(second)).sort()).toEqual(['d1', 'd2']);
  });

  it("answers a failed check's error in its place, and runs the others", async () => {
    const [dates, wrongType] = [redis.key('dob'), redis.key('dob-string')];
    await client.set(wrongType, 'not a set');
    const replies = await admitDatesOfBirth.run(client, [dates, wrongType, dates], [3, 3600, 'd1', 'd1', 'd2']);
    expect(replies[0]).toBe(1);
    expect(replies[1]).toBeInstanceOf(Error);
    expect((replies[1] as Error).message).toMatch(/^WRONGTYPE/);
    expect(replies[2]).toBe(1);
    expect((await client.smembers(dates)).sort()).toEqual(['d1', 'd2']);
  });

  it('admits exactly max of many dates tried at once from two connections', async () => {
    const dates = redis.key('dob');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => admitOne(dates, `d${index}`, 5, 3600, index % 2 ? client : other)));
    expect(answers.filter((answer) => answer === 1)).toHaveLength(5);
    expect(await client.scard(dates)).toBe(5);
  });
});
