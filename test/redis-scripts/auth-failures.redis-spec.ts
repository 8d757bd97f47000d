import { setTimeout as sleep } from 'node:timers/promises';
import { AUTH_FAILURE_WINDOW_MS, authBlockedFor, countAuthAttempt, forgiveAuthAttempt } from '../../src/redis/auth-failures.script';
import { scriptRedis } from '../support/script-redis';

const redis = scriptRedis();
const { client, other } = redis;

const counter = () => redis.key('auth-failures', '{a203.0.113.7}');

describe('countAuthAttempt', () => {
  it('counts failures in a fixed window from the first: later failures do not extend it', async () => {
    await countAuthAttempt.run(client, [counter()], [100]);
    expect(await client.pttl(counter())).toBeGreaterThan(AUTH_FAILURE_WINDOW_MS - 100);
    await client.pexpire(counter(), 5000);
    await countAuthAttempt.run(client, [counter()], [100]);
    expect(await client.get(counter())).toBe('2');
    expect(await client.pttl(counter())).toBeLessThanOrEqual(5000);
  });

  it('counts every one of many simultaneous failures', async () => {
    await Promise.all(Array.from({ length: 20 }, (_, index) => countAuthAttempt.run(index % 2 ? client : other, [counter()], [100])));
    expect(await client.get(counter())).toBe('20');
    expect(await client.pttl(counter())).toBeGreaterThan(AUTH_FAILURE_WINDOW_MS - 1000);
  });

  it('lets exactly the allowed number of many simultaneous attempts through, counting each before comparing', async () => {
    const answers = await Promise.all(Array.from({ length: 60 }, (_, index) => countAuthAttempt.run(index % 2 ? client : other, [counter()], [5])));
    expect(answers.filter((blockedFor) => blockedFor === 0)).toHaveLength(5);
    for (const blockedFor of answers.filter((answer) => answer !== 0)) {
      expect(blockedFor).toBeGreaterThan(AUTH_FAILURE_WINDOW_MS - 1000);
      expect(blockedFor).toBeLessThanOrEqual(AUTH_FAILURE_WINDOW_MS);
    }
    // The 55 refused reached no lookup: only the 5 let through keep their place.
    expect(await client.get(counter())).toBe('5');
  });

  it('keeps no place for a refused attempt: once the attempts in flight are forgiven, the next one goes on', async () => {
    for (let attempt = 0; attempt < 3; attempt++) expect(await countAuthAttempt.run(client, [counter()], [3])).toBe(0);
    for (let refused = 0; refused < 10; refused++) expect(await countAuthAttempt.run(client, [counter()], [3])).toBeGreaterThan(0);
    expect(await client.get(counter())).toBe('3');
    expect(await forgiveAuthAttempt.run(client, [counter()], [])).toBe(2);
    expect(await countAuthAttempt.run(client, [counter()], [3])).toBe(0);
    expect(await countAuthAttempt.run(client, [counter()], [3])).toBeGreaterThan(AUTH_FAILURE_WINDOW_MS - 1000);
    expect(await client.pttl(counter())).toBeGreaterThan(AUTH_FAILURE_WINDOW_MS - 1000);
  });

  it('answers 0 up to the allowed count and the window left past it', async () => {
    expect(await countAuthAttempt.run(client, [counter()], [2])).toBe(0);
    expect(await countAuthAttempt.run(client, [counter()], [2])).toBe(0);
    expect(await countAuthAttempt.run(client, [counter()], [2])).toBeGreaterThan(AUTH_FAILURE_WINDOW_MS - 1000);
  });

  it('starts a new window once the last one has ended', async () => {
    await countAuthAttempt.run(client, [counter()], [100]);
    await client.pexpire(counter(), 20);
    await sleep(40);
    await countAuthAttempt.run(client, [counter()], [100]);
    expect(await client.get(counter())).toBe('1');
    expect(await client.pttl(counter())).toBeGreaterThan(AUTH_FAILURE_WINDOW_MS - 1000);
  });
});

describe('authBlockedFor', () => {
  it('answers 0 under the limit, and for an address that never failed', async () => {
    expect(await authBlockedFor.run(client, [counter()], [3])).toBe(0);
    await countAuthAttempt.run(client, [counter()], [100]);
    await countAuthAttempt.run(client, [counter()], [100]);
    expect(await authBlockedFor.run(client, [counter()], [3])).toBe(0);
  });

  it('answers the milliseconds left of the window at the limit and past it', async () => {
    for (let failure = 0; failure < 4; failure += 1) await countAuthAttempt.run(client, [counter()], [100]);
    for (const allowed of [3, 4]) {
      const blockedFor = await authBlockedFor.run(client, [counter()], [allowed]);
      expect(blockedFor).toBeGreaterThan(AUTH_FAILURE_WINDOW_MS - 1000);
      expect(blockedFor).toBeLessThanOrEqual(AUTH_FAILURE_WINDOW_MS);
    }
    expect(await authBlockedFor.run(client, [counter()], [5])).toBe(0);
  });

  it('answers at least 1 ms for a counter without an expiry', async () => {
    await client.set(counter(), '9');
    expect(await authBlockedFor.run(client, [counter()], [3])).toBe(1);
  });
});

describe('forgiveAuthAttempt', () => {
  it('takes back one counted attempt, keeps the window, and never counts below zero', async () => {
    await countAuthAttempt.run(client, [counter()], [100]);
    await countAuthAttempt.run(client, [counter()], [100]);
    expect(await forgiveAuthAttempt.run(client, [counter()], [])).toBe(1);
    expect(await client.pttl(counter())).toBeGreaterThan(AUTH_FAILURE_WINDOW_MS - 1000);
    expect(await forgiveAuthAttempt.run(client, [counter()], [])).toBe(0);
    expect(await forgiveAuthAttempt.run(client, [counter()], [])).toBe(0);
    expect(await client.get(counter())).toBe('0');
    await client.del(counter());
    expect(await forgiveAuthAttempt.run(client, [counter()], [])).toBe(0);
    expect(await client.exists(counter())).toBe(0);
  });
});
