import type { RedisClient } from './redis-client-type';
import { redisScript, scriptCommandName } from './redis-script';

describe('scriptCommandName', () => {
  it("prefixes the script's name with lvs", () => {
    expect(scriptCommandName('takeLivePlace')).toBe('lvsTakeLivePlace');
  });
});

describe('redisScript run', () => {
  const script = redisScript<[string], [number], string>({ name: 'probe', lua: 'return ARGV[1]', numberOfKeys: 1 });
  const clientAnswering = (reply: unknown) => ({ lvsProbe: () => Promise.resolve(reply) }) as unknown as RedisClient;

  it("answers the script's reply", async () => {
    await expect(script.run(clientAnswering('7'), ['k'], [7])).resolves.toBe('7');
  });

  it('rejects with an error a cluster client handed back as the reply, so that callers see a failure, not a value', async () => {
    const moved = new Error('MOVED 513 127.0.0.1:46525');
    await expect(script.run(clientAnswering(moved), ['k'], [7])).rejects.toBe(moved);
  });
});
