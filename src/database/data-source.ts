import { Client } from 'pg';
import { DataSource, DataSourceOptions } from 'typeorm';
import { InitialSchema1763769600000 } from './migrations/1763769600000-initial-schema';
import { Batches1763856000000 } from './migrations/1763856000000-batches';
import { Monitoring1763942400000 } from './migrations/1763942400000-monitoring';
import { UserRateLimit1764028800000 } from './migrations/1764028800000-user-rate-limit';
import { DisabledUsers1764158400000 } from './migrations/1764158400000-disabled-users';
import { ChargeIdsAndDataLifetime1764244800000 } from './migrations/1764244800000-charge-ids-and-data-lifetime';
import { HolderChecks1764331200000 } from './migrations/1764331200000-holder-checks';
import { KeyLastUsed1764374400000 } from './migrations/1764374400000-key-last-used';
import { CounterFirstCharges1764460800000 } from './migrations/1764460800000-counter-first-charges';
import { UserWatchLimit1764547200000 } from './migrations/1764547200000-user-watch-limit';
import { KeyLineage1764590400000 } from './migrations/1764590400000-key-lineage';
import { LedgerRetention1764633600000 } from './migrations/1764633600000-ledger-retention';
import { VerificationRecords1764720000000 } from './migrations/1764720000000-verification-records';
import { TestMode1764806400000 } from './migrations/1764806400000-test-mode';
import { TestWorlds1764892800000 } from './migrations/1764892800000-test-worlds';
import { KeyRoles1764979200000 } from './migrations/1764979200000-key-roles';
import { ActivityLog1765065600000 } from './migrations/1765065600000-activity-log';
import { OperatorActions1765238400000 } from './migrations/1765238400000-operator-actions';
import { Operators1765324800000 } from './migrations/1765324800000-operators';
import { Members1765411200000 } from './migrations/1765411200000-members';
import { RosterMembers1765497600000 } from './migrations/1765497600000-roster-members';
import { UserLiveLookupLimit1795946557000 } from './migrations/1795946557000-user-live-lookup-limit';
import { MemberPasskeys1795946572552 } from './migrations/1795946572552-member-passkeys';
import { MemberSingleSignOn1795949214170 } from './migrations/1795949214170-member-single-sign-on';
import { OperatorSingleSignOn1795949215170 } from './migrations/1795949215170-operator-single-sign-on';
import { OperatorPasskeysAndStatus1795960000000 } from './migrations/1795960000000-operator-passkeys-and-status';

export interface DatabasePoolSettings {
  connectMs: number;
  /** each query's deadline, kept by the client: a pooler in transaction mode refuses a session statement_timeout */
  statementMs: number;
  /** false: hot statements run unnamed, for a pooler that cannot carry prepared statements across transactions */
  preparedStatements: boolean;
}

/** What pg's pool takes from TypeORM's `extra`, and our one option beside it (runNamedStatement reads it). */
interface PoolExtra {
  max: number;
  connectionTimeoutMillis?: number;
  query_timeout?: number;
  preparedStatements?: boolean;
}

/** Shared by the API, the worker, the command-line tools and the tests. */
export function buildDataSourceOptions(databaseUrl: string, pool?: DatabasePoolSettings): DataSourceOptions {
  const extra: PoolExtra = {
    max: 20,
    // Without them a query waits for an unreachable database indefinitely. No startup parameter such as
    // statement_timeout: PgBouncer refuses every one but extra_float_digits (see docs/operations.md).
    ...(pool && {
      connectionTimeoutMillis: pool.connectMs,
      query_timeout: pool.statementMs,
      preparedStatements: pool.preparedStatements,
    }),
  };
  return {
    type: 'postgres',
    url: databaseUrl,
    migrations: [
      InitialSchema1763769600000,
      Batches1763856000000,
      Monitoring1763942400000,
      UserRateLimit1764028800000,
      DisabledUsers1764158400000,
      ChargeIdsAndDataLifetime1764244800000,
      HolderChecks1764331200000,
      KeyLastUsed1764374400000,
      CounterFirstCharges1764460800000,
      UserWatchLimit1764547200000,
      KeyLineage1764590400000,
      LedgerRetention1764633600000,
      VerificationRecords1764720000000,
      TestMode1764806400000,
      TestWorlds1764892800000,
      KeyRoles1764979200000,
      ActivityLog1765065600000,
      OperatorActions1765238400000,
      Operators1765324800000,
      Members1765411200000,
      RosterMembers1765497600000,
      UserLiveLookupLimit1795946557000,
      MemberPasskeys1795946572552,
      MemberSingleSignOn1795949214170,
      OperatorSingleSignOn1795949215170,
      OperatorPasskeysAndStatus1795960000000,
    ],
    migrationsTransactionMode: 'each',
    synchronize: false,
    extra,
  };
}

/** Whether runNamedStatement may name its statements on this data source (DATABASE_PREPARED_STATEMENTS). */
export function usesPreparedStatements(dataSource: DataSource): boolean {
  return (dataSource.options.extra as PoolExtra | undefined)?.preparedStatements !== false;
}

/** Creates the database named in the URL when it does not exist yet. */
export async function ensureDatabaseExists(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const existing = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (existing.rowCount === 0) {
      // The name is validated by the config schema ([A-Za-z0-9_]+), so quoting it is enough.
      await client.query(`CREATE DATABASE "${name}"`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created by a concurrent process meanwhile
      });
    }
  } finally {
    await client.end();
  }
}

// Any constant unique to this service: API and worker processes starting together take turns.
const MIGRATION_LOCK_ID = 7_340_021;

/**
 * Creates the database if needed and applies pending migrations, on a connection of its own to `migrationUrl`:
 * a direct one (DATABASE_MIGRATION_URL) when the service's own goes through a pooler, which could hand the
 * session that holds the advisory lock to another client between statements.
 */
export async function migrateDatabase(migrationUrl: string): Promise<string[]> {
  await ensureDatabaseExists(migrationUrl);
  const dataSource = await new DataSource(buildDataSourceOptions(migrationUrl)).initialize();
  try {
    return await runMigrationsExclusively(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** Runs pending migrations while holding an advisory lock, so concurrent starts never race. */
async function runMigrationsExclusively(dataSource: DataSource): Promise<string[]> {
  const lockRunner = dataSource.createQueryRunner();
  await lockRunner.connect();
  try {
    await lockRunner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await lockRunner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await lockRunner.release();
  }
}
