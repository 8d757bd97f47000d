import type { Config } from '@jest/types';
import globalTeardown from './global-teardown';
import type { TopologyServers } from './topology-setup';

/** Stops the private PgBouncer first (it holds connections to the run's databases, which teardown drops), then the cluster. */
export default async function topologyTeardown(globalConfig: Config.GlobalConfig, projectConfig: Config.ProjectConfig): Promise<void> {
  const servers = (globalThis as { lvsTopologyServers?: TopologyServers }).lvsTopologyServers;
  await servers?.pgbouncer.destroy();
  await globalTeardown(globalConfig, projectConfig);
  await servers?.cluster.destroy();
}
