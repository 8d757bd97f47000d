import { admitDateOfBirth } from '../../src/holders/date-of-birth-checks.script';
import { scriptRedis } from '../support/script-redis';

const redis = scriptRedis();
const { client, other } = redis;

describe('admitDateOfBirth', () => {
  it('admits new dates while fewer than max are counted, then refuses new ones', async () => {
    const dates = redis.key('dob');
    const answers = [];
    for (const digest of ['d1', 'd2', 'd3', 'd4']) answers.push(await admitDateOfBirth.run(client, [dates], [digest, 3, 3600]));
    expect(answers).toEqual([1, 1, 1, 0]);
    expect((await client.smembers(dates)).sort()).toEqual(['d1', 'd2', 'd3']);
  });

  it('admits a date counted before again, even when the set is full, without counting it twice', async () => {
    const dates = redis.key('dob');
    await admitDateOfBirth.run(client, [dates], ['d1', 2, 3600]);
    await admitDateOfBirth.run(client, [dates], ['d2', 2, 3600]);
    expect(await admitDateOfBirth.run(client, [dates], ['d1', 2, 3600])).toBe(1);
    expect(await client.scard(dates)).toBe(2);
  });

  it('sets the TTL when it adds a date, and leaves it when a known date comes again', async () => {
    const dates = redis.key('dob');
    await admitDateOfBirth.run(client, [dates], ['d1', 3, 3600]);
    expect(await client.ttl(dates)).toBeGreaterThan(3595);
    await client.expire(dates, 100);
    await admitDateOfBirth.run(client, [dates], ['d1', 3, 3600]);
    expect(await client.ttl(dates)).toBeLessThanOrEqual(100);
    await admitDateOfBirth.run(client, [dates], ['d2', 3, 3600]);
    expect(await client.ttl(dates)).toBeGreaterThan(3595);
  });

  it('admits no new date with a max of 0', async () => {
    expect(await admitDateOfBirth.run(client, [redis.key('dob')], ['d1', 0, 3600])).toBe(0);
    expect(await client.exists(redis.key('dob'))).toBe(0);
  });

  it('admits exactly max of many dates tried at once from two connections', async () => {
    const dates = redis.key('dob');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => admitDateOfBirth.run(index % 2 ? client : other, [dates], [`d${index}`, 5, 3600])),
    );
    expect(answers.filter((answer) => answer === 1)).toHaveLength(5);
    expect(await client.scard(dates)).toBe(5);
  });
});
