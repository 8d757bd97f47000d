import { takeManualSend } from '../../src/webhooks/manual-sends.script';
import { scriptRedis } from '../support/script-redis';

const redis = scriptRedis();
const { client } = redis;

const INTERVAL_MS = 10_000;

describe('takeManualSend', () => {
  it("takes the endpoint's first send and records when it went, for the interval", async () => {
    const lastSend = redis.key('manual-send');
    expect(await takeManualSend.run(client, [lastSend], [1_000_000, INTERVAL_MS])).toBe(0);
    expect(await client.get(lastSend)).toBe('1000000');
    expect(await client.pttl(lastSend)).toBeGreaterThan(INTERVAL_MS - 100);
  });

  it('answers the milliseconds left within the interval, and records nothing', async () => {
    const lastSend = redis.key('manual-send');
    await takeManualSend.run(client, [lastSend], [1_000_000, INTERVAL_MS]);
    expect(await takeManualSend.run(client, [lastSend], [1_000_001, INTERVAL_MS])).toBe(INTERVAL_MS - 1);
    expect(await takeManualSend.run(client, [lastSend], [1_009_999, INTERVAL_MS])).toBe(1);
    expect(await client.get(lastSend)).toBe('1000000');
  });

  it('takes a send once the interval has passed on the clock given, before the key expires', async () => {
    const lastSend = redis.key('manual-send');
    await takeManualSend.run(client, [lastSend], [1_000_000, INTERVAL_MS]);
    expect(await takeManualSend.run(client, [lastSend], [1_010_000, INTERVAL_MS])).toBe(0);
    expect(await client.get(lastSend)).toBe('1010000');
  });

  it('answers at most the interval when the clock went back', async () => {
    const lastSend = redis.key('manual-send');
    await takeManualSend.run(client, [lastSend], [1_000_000, INTERVAL_MS]);
    expect(await takeManualSend.run(client, [lastSend], [900_000, INTERVAL_MS])).toBe(INTERVAL_MS);
  });
});
