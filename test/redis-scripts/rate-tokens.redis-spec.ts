import { takeRateTokens } from '../../src/rate-limit/rate-tokens.script';
import { backlogAt, BucketPolicy, takeToken, TOKEN_UNITS } from '../../src/rate-limit/token-bucket';
import { scriptRedis } from '../support/script-redis';

const redis = scriptRedis();
const { client, other } = redis;

const bucket = () => redis.key('rl', '{u1}');

async function redisMicros(): Promise<number> {
  const [seconds, micros] = await client.time();
  return Number(seconds) * 1_000_000 + Number(micros);
}

describe('takeRateTokens', () => {
  it("admits a fresh bucket's burst, refuses the rest, and answers each request's backlog", async () => {
    const replies = await takeRateTokens.run(client, [bucket()], [1, 3, TOKEN_UNITS, 5]);
    expect(replies).toEqual([
      [1, '1000000'],
      [1, '2000000'],
      [1, '3000000'],
      [0, '3000000'],
      [0, '3000000'],
    ]);
  });

  it('stores the backlog and the microsecond it was measured at as whole numbers, expiring once paid back', async () => {
    const before = await redisMicros();
    await takeRateTokens.run(client, [bucket()], [1, 3, TOKEN_UNITS, 3]);
    const after = await redisMicros();
    const { backlog, at } = await client.hgetall(bucket());
    expect(backlog).toBe('3000000');
    // 16 digits, written in full: no exponent and no rounding to 14 digits.
    expect(at).toMatch(/^\d{16}$/);
    expect(Number(at)).toBeGreaterThanOrEqual(before);
    expect(Number(at)).toBeLessThanOrEqual(after);
    // 3 tokens at 1 a second are paid back in 3 s: the key goes 1 ms after.
    const ttl = await client.pttl(bucket());
    expect(ttl).toBeGreaterThan(2900);
    expect(ttl).toBeLessThanOrEqual(3001);
  });

  it('pays the backlog back at the rate since it was measured, as token-bucket.ts does', async () => {
    const policy: BucketPolicy = { ratePerSecond: 2, burst: 4 };
    await takeRateTokens.run(client, [bucket()], [policy.ratePerSecond, policy.burst, TOKEN_UNITS, 4]);
    // The bucket as measured 1.5 s ago: three tokens are paid back by now.
    const at = Number(await client.hget(bucket(), 'at')) - 1_500_000;
    await client.hset(bucket(), 'at', String(at));
    const now = await redisMicros();
    const replies = await takeRateTokens.run(client, [bucket()], [policy.ratePerSecond, policy.burst, TOKEN_UNITS, 4]);
    expect(replies.map(([admitted]) => admitted)).toEqual([1, 1, 1, 0]);
    // The pure rule, at the time just before the call: the script measured a little later, so owes a little less.
    let expected = backlogAt({ backlog: 4 * TOKEN_UNITS, atMicros: at }, now, policy);
    for (let request = 0; request < 3; request += 1) expected = takeToken(expected, policy).backlog;
    const stored = Number(await client.hget(bucket(), 'backlog'));
    expect(stored).toBeLessThanOrEqual(expected);
    expect(stored).toBeGreaterThan(expected - 50_000);
    expect(Number(replies[3][1])).toBe(stored);
  });

  it('writes nothing when it admits nothing', async () => {
    await takeRateTokens.run(client, [bucket()], [1, 2, TOKEN_UNITS, 2]);
    const stored = await client.hgetall(bucket());
    expect(await takeRateTokens.run(client, [bucket()], [1, 2, TOKEN_UNITS, 1])).toEqual([[0, expect.stringMatching(/^\d+$/)]]);
    expect(await client.hgetall(bucket())).toEqual(stored);
  });

  it("admits exactly a burst of one user's requests sent at once from two connections", async () => {
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, index) => takeRateTokens.run(index % 2 ? client : other, [bucket()], [1, 4, TOKEN_UNITS, 2])),
    );
    expect(replies.flat().filter(([admitted]) => admitted === 1)).toHaveLength(4);
  });
});
