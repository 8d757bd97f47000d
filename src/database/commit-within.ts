import type { Pool, PoolClient, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { usesPreparedStatements } from './data-source';
import { namedStatementAttributes, type NamedStatement } from './named-statement';
import { inClientSpan } from '../tracing/tracing';

/** A statement that could not commit before its deadline: nothing of it is committed, then or later. */
export class CommitDeadlinePassed extends Error {
  constructor(timeoutMs: number) {
    super(`the statement did not reach its commit within ${timeoutMs} ms`);
  }
}

/** Settles with the promise, or rejects with `expiry` first; a loser's late rejection is swallowed. */
function before<T>(work: Promise<T>, expiry: Promise<never>): Promise<T> {
  work.catch(() => undefined);
  return Promise.race([work, expiry]);
}

/**
 * Runs one named statement in its own transaction, which commits only if the statement finished within
 * `timeoutMs`. The statement carries the same deadline on the server (`SET LOCAL statement_timeout`, local to
 * the transaction, so it also holds behind a transaction-mode pooler). A server that does not answer at all
 * (frozen) cannot enforce it: then the client gives up at the deadline and closes the connection without
 * having sent COMMIT, so whatever the server runs of it after a thaw is rolled back. Once COMMIT is sent, its
 * answer is awaited, so that the caller is told what really happened. With tracing on, the transaction is one span.
 */
export function commitWithin<Row extends QueryResultRow>(
  dataSource: DataSource,
  statement: NamedStatement,
  values: unknown[],
  timeoutMs: number,
): Promise<Row[]> {
  return inClientSpan(statement.name, namedStatementAttributes(statement), () => commitInTime<Row>(dataSource, statement, values, timeoutMs));
}

async function commitInTime<Row extends QueryResultRow>(
  dataSource: DataSource,
  statement: NamedStatement,
  values: unknown[],
  timeoutMs: number,
): Promise<Row[]> {
  const pool = (dataSource.driver as PostgresDriver).master as Pool;
  const deadline = Date.now() + timeoutMs;
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CommitDeadlinePassed(timeoutMs)), timeoutMs);
  });
  expiry.catch(() => undefined);

  const connecting = pool.connect();
  let client: PoolClient;
  try {
    client = await before(connecting, expiry);
  } catch (error) {
    clearTimeout(timer);
    // A connection that opens after the deadline goes back to the pool unused.
    connecting.then(
      (late) => late.release(),
      () => undefined,
    );
    throw error;
  }
  // pg also emits a dropped connection's error on the client, besides failing its query: while the client is
  // ours, an 'error' without a listener would end the process (the pool listens only to idle clients).
  client.on('error', ignoreError);
  try {
    const remainingMs = Math.max(1, deadline - Date.now());
    await before(client.query(`BEGIN; SET LOCAL statement_timeout = ${remainingMs}`), expiry);
    const name = usesPreparedStatements(dataSource) ? statement.name : undefined;
    const result = await before(client.query<Row>({ name, text: statement.text, values }), expiry);
    clearTimeout(timer);
    await client.query('COMMIT');
    client.off('error', ignoreError);
    client.release();
    return result.rows;
  } catch (error) {
    clearTimeout(timer);
    client.off('error', ignoreError);
    // Released with an error, the connection is closed (a hung one at once) rather than reused: the server
    // rolls back the open transaction when it reads the end of the connection.
    client.release(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}

const ignoreError = (): void => undefined;
