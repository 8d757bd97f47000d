import type { Pool, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/** A statement that hot paths run thousands of times a second, under a name unique to its text. */
export interface NamedStatement {
  name: string;
  text: string;
}

/**
 * Runs a named prepared statement on TypeORM's own pool (same connections, same timeouts): PostgreSQL
 * parses and plans it once per connection instead of on every call, and the call skips TypeORM's
 * query runner. Unprepared, the quota endpoint's one query cost PostgreSQL 140 µs of CPU a call.
 */
export async function runNamedStatement<Row extends QueryResultRow>(
  dataSource: DataSource,
  statement: NamedStatement,
  values: unknown[],
): Promise<Row[]> {
  const pool = (dataSource.driver as PostgresDriver).master as Pool;
  const result = await pool.query<Row>({ name: statement.name, text: statement.text, values });
  return result.rows;
}
