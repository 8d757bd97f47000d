import { recordAnswers } from '../../src/verification-records/answer-records.script';
import { scriptRedis } from '../support/script-redis';

const redis = scriptRedis();
const { client } = redis;

const stream = () => redis.key('evidence', 'records');
const record = (name: string) => redis.key('idempotency', name);

async function streamed(): Promise<string[]> {
  return (await client.xrange(stream(), '-', '+')).map(([, fields]) => fields[1]);
}

describe('recordAnswers', () => {
  it('keeps a new id under the replay field, appends the record to the stream and answers the id and its TTL', async () => {
    const [[id, ttlMs]] = (await recordAnswers.run(client, [record('a'), stream()], [600, 'verify', 'fp-1', 'id-1', '{"n":1}'])) as [string, number][];
    expect(id).toBe('id-1');
    expect(ttlMs).toBeGreaterThan(595_000);
    expect(ttlMs).toBeLessThanOrEqual(600_000);
    expect(await client.hgetall(record('a'))).toEqual({ verify: 'id-1', 'verify:answer': 'fp-1' });
    expect(await streamed()).toEqual(['{"n":1}']);
  });

  it('answers the id kept before for a replay of the same answer, and appends nothing', async () => {
    await recordAnswers.run(client, [record('a'), stream()], [600, 'verify', 'fp-1', 'id-1', '{"n":1}']);
    const replies = await recordAnswers.run(client, [record('a'), stream()], [600, 'verify', 'fp-1', 'id-2', '{"n":2}']);
    expect(replies).toEqual([['id-1', expect.any(Number)]]);
    expect(await streamed()).toEqual(['{"n":1}']);
  });

  it('keeps a new id and record when a replay gives another answer, so that no id leads to an answer it did not give', async () => {
    await recordAnswers.run(client, [record('a'), stream()], [600, 'verify', 'fp-1', 'id-1', '{"n":1}']);
    const replies = await recordAnswers.run(client, [record('a'), stream()], [600, 'verify', 'fp-2', 'id-2', '{"n":2}']);
    expect(replies).toEqual([['id-2', expect.any(Number)]]);
    expect(await client.hgetall(record('a'))).toEqual({ verify: 'id-2', 'verify:answer': 'fp-2' });
    expect(await streamed()).toEqual(['{"n":1}', '{"n":2}']);
  });

  it("keeps a record's running TTL (set by its claim), and answers it", async () => {
    await client.hset(record('a'), 'licenceNumber', 'NUM-A');
    await client.expire(record('a'), 30);
    const [[, ttlMs]] = (await recordAnswers.run(client, [record('a'), stream()], [600, 'verify', 'fp-1', 'id-1', '{"n":1}'])) as [string, number][];
    expect(ttlMs).toBeLessThanOrEqual(30_000);
    expect(await client.ttl(record('a'))).toBeLessThanOrEqual(30);
  });

  it('records the answers of one call in order, one field each, a key answering two questions', async () => {
    const replies = await recordAnswers.run(
      client,
      [record('a'), record('a'), record('b'), stream()],
      [600, 'verify', 'fp-1', 'id-1', '{"n":1}', 'holder:x', 'fp-2', 'id-2', '{"n":2}', 'verify', 'fp-3', 'id-3', '{"n":3}'],
    );
    expect(replies.map((reply) => (reply as [string, number])[0])).toEqual(['id-1', 'id-2', 'id-3']);
    expect(await client.hgetall(record('a'))).toEqual({ verify: 'id-1', 'verify:answer': 'fp-1', 'holder:x': 'id-2', 'holder:x:answer': 'fp-2' });
    expect(await streamed()).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
  });

  it("answers a failing answer's error in its place, and records the others", async () => {
    await client.set(record('b'), 'not a hash');
    const replies = await recordAnswers.run(
      client,
      [record('a'), record('b'), record('c'), stream()],
      [600, 'verify', 'fp-1', 'id-1', '{"n":1}', 'verify', 'fp-2', 'id-2', '{"n":2}', 'verify', 'fp-3', 'id-3', '{"n":3}'],
    );
    expect(replies[0]).toEqual(['id-1', expect.any(Number)]);
    expect(replies[1]).toBeInstanceOf(Error);
    expect((replies[1] as Error).message).toMatch(/^WRONGTYPE/);
    expect(replies[2]).toEqual(['id-3', expect.any(Number)]);
    expect(await streamed()).toEqual(['{"n":1}', '{"n":3}']);
  });
});
