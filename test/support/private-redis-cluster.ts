import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { freePort } from './free-port';
import { PrivateRedis } from './private-redis';
import { until } from './until';

const run = promisify(execFile);

// Short enough for a test to see a replica promoted within seconds of its primary's death.
const NODE_TIMEOUT_MS = 2000;

/**
 * A Redis Cluster of the test's own: 3 primaries and a replica each, on free ports, created with
 * `redis-cli --cluster create`. A test may kill one primary (its replica is promoted) and start it again.
 */
export class PrivateRedisCluster {
  private constructor(readonly nodes: PrivateRedis[]) {}

  static async start(): Promise<PrivateRedisCluster> {
    const nodes = await Promise.all(
      Array.from({ length: 6 }, async () =>
        PrivateRedis.start([
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          'nodes.conf',
          '--cluster-node-timeout',
          String(NODE_TIMEOUT_MS),
          // A free port of its own for the cluster bus: by default it is the node's port + 10000, which does not exist
          // for a free port above 55535 (the server then refuses to start) and may be taken below it.
          '--cluster-port',
          String(await freePort()),
        ]),
      ),
    );
    const cluster = new PrivateRedisCluster(nodes);
    await run('redis-cli', ['--cluster', 'create', ...nodes.map((node) => `127.0.0.1:${node.port}`), '--cluster-replicas', '1', '--cluster-yes'], {
      timeout: 60_000, // it waits for the nodes to meet without a limit of its own
    });
    await cluster.waitUntilHealthy();
    return cluster;
  }

  /** REDIS_CLUSTER_NODES for the service. */
  get nodeList(): string {
    return this.nodes.map((node) => `127.0.0.1:${node.port}`).join(',');
  }

  /** The service's settings for this cluster: its nodes, and the hash-tagged prefix a cluster needs. */
  get serviceSettings(): Record<string, string> {
    return { REDIS_CLUSTER_NODES: this.nodeList, REDIS_PREFIX: '{lvs}' };
  }

  /** A plain client of the test's own on the primary serving `prefix`'s hash tag: it reads every key under the prefix. */
  async client(prefix: string): Promise<Redis> {
    const { host, port } = await primaryAddressOf(this.nodeList, prefix);
    return new Redis(port, host, { maxRetriesPerRequest: 1 });
  }

  /** Every node reports the cluster ok and all 16384 slots served. */
  async waitUntilHealthy(timeoutMs = 30_000): Promise<void> {
    await until(
      () => Promise.all(this.nodes.map((node) => clusterInfo(node.port))),
      (infos) => infos.every((info) => info.includes('cluster_state:ok') && info.includes('cluster_slots_ok:16384')),
      timeoutMs,
    );
  }

  /** The node currently serving `key`'s slot as primary. */
  async primaryOf(key: string): Promise<PrivateRedis> {
    const { port } = await primaryAddressOf(this.nodeList, key);
    return this.nodes.find((node) => node.port === port)!;
  }

  async destroy(): Promise<void> {
    await Promise.all(this.nodes.map((node) => node.destroy()));
  }
}

async function clusterInfo(port: number): Promise<string> {
  const client = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await client.connect();
    return await client.cluster('INFO');
  } catch {
    return 'unreachable';
  } finally {
    client.disconnect();
  }
}

/**
 * The primary serving `key`'s slot, asked of the first node in `nodeList` (REDIS_CLUSTER_NODES) that answers.
 * A plain client there reads every key under one hash tag, KEYS and SCAN included, which a Cluster client sends
 * to any node.
 */
export async function primaryAddressOf(nodeList: string, key: string): Promise<{ host: string; port: number }> {
  for (const node of nodeList.split(',')) {
    const [host, port] = node.split(':');
    const probe = new Redis(Number(port), host, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      await probe.connect();
      const slot = await probe.cluster('KEYSLOT', key);
      const shards = await probe.cluster('SLOTS');
      const [primaryHost, primaryPort] = shards.find(([from, to]) => slot >= from && slot <= to)![2];
      return { host: primaryHost, port: primaryPort };
    } catch {
      // this node is down: ask the next
    } finally {
      probe.disconnect();
    }
  }
  throw new Error(`no node of ${nodeList} answered`);
}
