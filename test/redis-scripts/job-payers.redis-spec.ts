import { claimRefund, withdrawPayers } from '../../src/lookups/job-payers.script';
import { scriptRedis } from '../support/script-redis';

const redis = scriptRedis();
const { client, other } = redis;

const payers = () => redis.key('payers', 'job-1');
const refunding = () => redis.key('refunding', 'job-1');
const index = () => redis.key('payers-index');
const claimKeys = () => [payers(), refunding(), index()] as [string, string, string];
const charge = (userId: string, licenceNumber: string) => JSON.stringify({ userId, licenceNumber });

describe('claimRefund', () => {
  it("moves the job's payers to its refunding set, leases the refund and answers the charges", async () => {
    await client.sadd(payers(), charge('u1', 'A'), charge('u2', 'B'));
    await client.zadd(index(), 0, 'job-1');
    const [outcome, ...claimed] = await claimRefund.run(client, claimKeys(), ['job-1', 5000, 1000, 3600]);
    expect(outcome).toBe('claimed');
    expect(claimed.sort()).toEqual([charge('u1', 'A'), charge('u2', 'B')]);
    expect(await client.exists(payers())).toBe(0);
    expect((await client.smembers(refunding())).sort()).toEqual([charge('u1', 'A'), charge('u2', 'B')]);
    expect(await client.ttl(refunding())).toBeGreaterThan(3595);
    expect(await client.zscore(index(), 'job-1')).toBe('5000');
  });

  it('answers settled, and drops the job from the index, when nothing is left to refund', async () => {
    await client.zadd(index(), 0, 'job-1');
    expect(await claimRefund.run(client, claimKeys(), ['job-1', 5000, 1000, 3600])).toEqual(['settled']);
    expect(await client.zscore(index(), 'job-1')).toBeNull();
  });

  it('answers busy while another claim holds an unexpired lease, and claims again once it has ended', async () => {
    await client.sadd(payers(), charge('u1', 'A'));
    await claimRefund.run(client, claimKeys(), ['job-1', 5000, 1000, 3600]);
    // A payer that came meanwhile waits for the next claim.
    await client.sadd(payers(), charge('u2', 'B'));
    expect(await claimRefund.run(client, claimKeys(), ['job-1', 9000, 4999, 3600])).toEqual(['busy']);
    expect(await client.smembers(payers())).toEqual([charge('u2', 'B')]);
    const [outcome, ...claimed] = await claimRefund.run(client, claimKeys(), ['job-1', 9000, 5000, 3600]);
    expect(outcome).toBe('claimed');
    expect(claimed.sort()).toEqual([charge('u1', 'A'), charge('u2', 'B')]);
    expect(await client.zscore(index(), 'job-1')).toBe('9000');
  });

  it('claims a refunding set whose job has no lease in the index (a refunder that died before leasing)', async () => {
    await client.sadd(refunding(), charge('u1', 'A'));
    expect(await claimRefund.run(client, claimKeys(), ['job-1', 5000, 1000, 3600])).toEqual(['claimed', charge('u1', 'A')]);
  });

  it('lets one of many simultaneous claims have the refund', async () => {
    await client.sadd(payers(), charge('u1', 'A'));
    const claims = await Promise.all(
      Array.from({ length: 10 }, (_, index) => claimRefund.run(index % 2 ? client : other, claimKeys(), ['job-1', 5000, 1000, 3600])),
    );
    expect(claims.filter(([outcome]) => outcome === 'claimed')).toEqual([['claimed', charge('u1', 'A')]]);
    expect(claims.filter(([outcome]) => outcome === 'busy')).toHaveLength(9);
  });
});

describe('withdrawPayers', () => {
  it("takes one user's charges out of the job's payers and answers them", async () => {
    await client.sadd(payers(), charge('u1', 'A'), charge('u2', 'B'), charge('u1', 'C'));
    expect((await withdrawPayers.run(client, [payers()], ['u1'])).sort()).toEqual([charge('u1', 'A'), charge('u1', 'C')]);
    expect(await client.smembers(payers())).toEqual([charge('u2', 'B')]);
  });

  it('answers nothing for a user without charges or a job without payers', async () => {
    await client.sadd(payers(), charge('u2', 'B'));
    expect(await withdrawPayers.run(client, [payers()], ['u1'])).toEqual([]);
    expect(await withdrawPayers.run(client, [redis.key('payers', 'none')], ['u1'])).toEqual([]);
    expect(await client.smembers(payers())).toEqual([charge('u2', 'B')]);
  });
});
