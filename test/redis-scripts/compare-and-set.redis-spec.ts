import { compareAndSet } from '../../src/redis/compare-and-set.script';
import { scriptRedis } from '../support/script-redis';

const redis = scriptRedis();
const { client, other } = redis;

describe('compareAndSet', () => {
  it("writes a missing key when '' is expected", async () => {
    const key = redis.key('breaker');
    expect(await compareAndSet.run(client, [key], ['', 'open'])).toBe(1);
    expect(await client.get(key)).toBe('open');
  });

  it('writes when the key holds what is expected, and leaves it otherwise', async () => {
    const key = redis.key('breaker');
    await client.set(key, 'closed');
    expect(await compareAndSet.run(client, [key], ['open', 'half-open'])).toBe(0);
    expect(await compareAndSet.run(client, [key], ['', 'half-open'])).toBe(0);
    expect(await client.get(key)).toBe('closed');
    expect(await compareAndSet.run(client, [key], ['closed', 'open'])).toBe(1);
    expect(await client.get(key)).toBe('open');
  });

  it('refuses to write a missing key when a value is expected', async () => {
    const key = redis.key('breaker');
    expect(await compareAndSet.run(client, [key], ['closed', 'open'])).toBe(0);
    expect(await client.exists(key)).toBe(0);
  });

  it('lets one of many writers expecting the same value win', async () => {
    const key = redis.key('breaker');
    await client.set(key, 'v0');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) => compareAndSet.run(index % 2 ? client : other, [key], ['v0', `v${index + 1}`])),
    );
    expect(answers.filter((answer) => answer === 1)).toHaveLength(1);
    expect(await client.get(key)).toBe(`v${answers.indexOf(1) + 1}`);
  });
});
