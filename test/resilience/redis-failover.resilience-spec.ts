import { setTimeout as sleep } from 'node:timers/promises';
import { PrivateRedisCluster } from '../support/private-redis-cluster';
import { PrivateRedisSentinel } from '../support/private-redis-sentinel';
import { until } from '../support/until';
import {
  Answer,
  countByStatus,
  FaultRig,
  loadFigures,
  newNumber,
  report,
  RigRedis,
  settleLedger,
  SteadyLoad,
  TestKey,
  unexpectedAnswers,
  verifyOnce,
  WARM_NUMBERS,
} from './fault-rig';

// The bound: service is back within 10 s of the replica's promotion.
const BACK_AFTER_PROMOTION_MS = 10_000;

interface Failover<R extends RigRedis> {
  name: string;
  start(): Promise<R>;
  /** kills the primary our keys live on; resolves once a replica is promoted in its place */
  failOver(redis: R): Promise<void>;
  /** after the scenario: e.g. the old primary started again, rejoining as a replica */
  afterwards?(redis: R): Promise<void>;
}

/** Polls new verifications until one gets a final answer: the time the service is back. */
async function untilServing<R extends RigRedis>(rig: FaultRig<R>, user: TestKey, since: number): Promise<Answer[]> {
  const probes: Answer[] = [];
  for (;;) {
    const probe = await verifyOnce(rig.baseUrl, user, newNumber(), true, since);
    probes.push(probe);
    if ([200, 404].includes(probe.status as number)) return probes;
    if (Date.now() - since > 30_000) return probes;
    await sleep(100);
  }
}

/**
 * Kills the Redis primary under steady load: every answer is a result or 503 (never a 500 or no answer), the
 * service answers new numbers again within 10 s of the promotion, and PostgreSQL's charges equal the results answered.
 */
async function runFailover<R extends RigRedis>(scenario: Failover<R>): Promise<void> {
  const rig = await FaultRig.startOn(await scenario.start(), { DEPENDENCY_TIMEOUT_MS: '1000' });
  try {
    const users = await rig.warmUsers(3);
    const load = new SteadyLoad(() => rig.baseUrl, users, WARM_NUMBERS);
    await sleep(1500);
    const killedAt = Date.now();
    await scenario.failOver(rig.redis);
    const promotedAt = Date.now();
    const probes = await untilServing(rig, users[0], promotedAt);
    const backAfterMs = Date.now() - promotedAt;
    await sleep(3000);
    const answers = [...(await load.stop()), ...probes];
    await scenario.afterwards?.(rig.redis);

    const problems = unexpectedAnswers(answers, { fresh: [200, 202, 404, 503], warm: [200, 503] });
    const ledger = await settleLedger(rig, answers, users);
    report(scenario.name, {
      ...loadFigures(answers),
      promotionAfterKillMs: promotedAt - killedAt,
      serviceBackAfterPromotionMs: backAfterMs,
      byStatusDuringFailover: countByStatus(
        answers.filter((answer) => answer.sentAt + load.startedAt >= killedAt && answer.sentAt + load.startedAt <= promotedAt + backAfterMs),
      ),
      charges: { expected: ledger.expected, found: ledger.found, pendingRetried: ledger.retried },
    });

    expect({ problems, apiErrors: problems.length > 0 ? rig.apiErrors() : [] }).toEqual({ problems: [], apiErrors: [] });
    expect(backAfterMs).toBeLessThan(BACK_AFTER_PROMOTION_MS);
    expect(ledger.mismatches).toEqual([]);
  } finally {
    await rig.close();
  }
}

describe('losing the Redis primary under steady load', () => {
  it('Sentinel (1 primary, 1 replica, 3 sentinels): the primary killed, answers are results or 503, back within 10 s of the promotion, no charge lost or doubled', async () => {
    await runFailover<PrivateRedisSentinel>({
      name: 'redis-sentinel-failover',
      start: () => PrivateRedisSentinel.start(),
      async failOver(sentinel) {
        const killed = await sentinel.killPrimary();
        await until(
          () => sentinel.primaryPort(),
          (port) => port !== killed,
          30_000,
        );
      },
    });
  }, 180_000);

  it('Cluster (3 primaries, 3 replicas): the primary of our keys killed and restarted, the same', async () => {
    let killed: number | null = null;
    await runFailover<PrivateRedisCluster>({
      name: 'redis-cluster-failover',
      start: () => PrivateRedisCluster.start(),
      async failOver(cluster) {
        const primary = await cluster.primaryOf('{lvs}');
        killed = primary.port;
        await primary.stop();
        await until(
          () => cluster.primaryOf('{lvs}').catch(() => primary),
          (now) => now.port !== killed,
          30_000,
        );
      },
      async afterwards(cluster) {
        // Started again, the old primary rejoins as a replica of the promoted one.
        await cluster.nodes.find((node) => node.port === killed)!.resume();
        await cluster.waitUntilHealthy();
      },
    });
  }, 180_000);
});
