import globalSetup from './global-setup';
import { PrivatePgBouncer } from './private-pgbouncer';
import { PrivateRedisCluster } from './private-redis-cluster';
import { POSTGRES_ADMIN_URL } from './test-run';

/** What topology-teardown stops; Jest runs global setup and teardown in one process, so a global carries it. */
export interface TopologyServers {
  cluster: PrivateRedisCluster;
  pgbouncer: PrivatePgBouncer;
}

/** The e2e-topologies project: the usual run setup, then a private Redis Cluster and PgBouncer for every spec (testTopology). */
export default async function topologySetup(): Promise<void> {
  await globalSetup();
  const [cluster, pgbouncer] = await Promise.all([PrivateRedisCluster.start(), PrivatePgBouncer.start(POSTGRES_ADMIN_URL)]);
  process.env.LVS_TEST_REDIS_CLUSTER_NODES = cluster.nodeList;
  process.env.LVS_TEST_PGBOUNCER_PORT = String(pgbouncer.port);
  (globalThis as { lvsTopologyServers?: TopologyServers }).lvsTopologyServers = { cluster, pgbouncer };
}
