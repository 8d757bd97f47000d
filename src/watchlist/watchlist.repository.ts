import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { lockUser, servedUsers, userWatchLimit } from '../auth/users-sql';
import { AppConfig } from '../config/app-config';
import { holderDataRow } from '../secrets/holder-data';
import { sealedDateColumn, SealedDateRows } from '../secrets/holder-data-reseal';
import type { FinalResult } from '../lookups/lookup-outcome';
import { LIVE_WORLD } from './recheck.queue';
import type { WatchlistQuery } from './dto/watchlist-query.dto';
import type { WatchEntryRow, WatchState } from './watch-entry-view';
import type { WatchlistCount } from './watchlist-room';

/** A served user watching a number, as a re-check charges it. */
export interface Watcher {
  userId: string;
  reference: string | null;
  state: WatchState;
  monthlyQuota: number | null;
  /** when the number was last recorded as checked (the same for every watcher) */
  checkedAt: Date | null;
}

/** An active watcher of a licence that stopped being Active, with what finding and following its successor needs. */
export interface SuccessorWatcher {
  userId: string;
  reference: string | null;
  holder: { firstName: string; surname: string } | null;
  dateOfBirthSealed: string | null;
  followSuccessor: boolean;
  monthlyQuota: number | null;
}

/** A number's last recorded answer and the expiry warnings already sent for it. */
export interface RecordedState {
  result: FinalResult | null;
  expiryWarnings: number[];
}

/** What a re-check stores of its answer. */
export interface StateUpdate {
  result: FinalResult;
  expiryWarnings: number[];
  /** set last_changed_at to `at` */
  changed: boolean;
  at: Date;
  nextCheckAt: Date;
}

/** The entry of a successor watched on a watcher's behalf. */
export interface SuccessorEntry {
  userId: string;
  licenceNumber: string;
  reference: string | null;
  addedAt: Date;
  state: WatchState;
  pausedReason: string | null;
  holder: { firstName: string; surname: string } | null;
  dateOfBirthSealed: string;
}

/**
 * A watch entry joined with its number's last known state. A paused entry shows its state as of its pause (e), not
 * what later re-checks for other watchers found.
 */
const ENTRY_SOURCE = `watch_entries w JOIN licence_states s ON s.world = w.world AND s.licence_number = w.licence_number
  CROSS JOIN LATERAL (SELECT CASE WHEN w.state = 'PAUSED' THEN w.paused_result ELSE s.result END AS result,
                             CASE WHEN w.state = 'PAUSED' THEN w.paused_checked_at ELSE s.checked_at END AS checked_at,
                             CASE WHEN w.state = 'PAUSED' THEN w.paused_last_changed_at ELSE s.last_changed_at END AS last_changed_at) e`;
const ENTRY_COLUMNS = `w.licence_number AS "licenceNumber", w.reference, w.added_at AS "addedAt", w.state, w.paused_reason AS "pausedReason",
  e.result, e.checked_at AS "checkedAt", e.last_changed_at AS "lastChangedAt", w.successor_licence_number AS "successorLicenceNumber"`;

// The user's entries, how many of the numbers asked ($2) are not among them, and the user's own cap: one snapshot.
const WATCHLIST_COUNT = `
  SELECT (SELECT count(*)::int FROM watch_entries WHERE user_id = $1) AS watched,
         (SELECT count(*)::int FROM unnest($2::text[]) AS asked(number)
           WHERE NOT EXISTS (SELECT 1 FROM watch_entries w WHERE w.user_id = $1 AND w.licence_number = asked.number)) AS adding,
         ${userWatchLimit('$1')} AS "userLimit"`;

/** A number claimed in a world: the live one (LIVE_WORLD), or one test user's. */
export interface DueNumber {
  licenceNumber: string;
  world: string;
}

/**
 * Every statement on watch_entries and licence_states. A number's state belongs to a world (see migration
 * 1764892800000-test-worlds): statements on one number name its world, and a user's world is licence_world(user).
 */
@Injectable()
export class WatchlistRepository {
  /** SQL: the served users as relation `u`, test sides by the test mode settings */
  private readonly servedUsers: string;
  /** the watch entries' dates of birth, for keys reseal-holder-data */
  readonly sealedDates: SealedDateRows;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    config: AppConfig,
  ) {
    this.servedUsers = servedUsers('u', { testModeEnabled: config.get('TEST_MODE_ENABLED'), testModeQuota: config.get('TEST_MODE_QUOTA') });
    this.sealedDates = sealedDateColumn(dataSource, 'watch_entries', ['user_id', 'licence_number'], ([userId, number]) =>
      holderDataRow.watchEntry(userId, number),
    );
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async isWatched(userId: string, licenceNumber: string): Promise<boolean> {
    const [{ watched }] = await this.dataSource.query<{ watched: boolean }[]>(
      'SELECT EXISTS (SELECT 1 FROM watch_entries WHERE user_id = $1 AND licence_number = $2) AS watched',
      [userId, licenceNumber],
    );
    return watched;
  }

  /** Which of the numbers the user watches already. */
  async watchedAmong(userId: string, numbers: string[]): Promise<Set<string>> {
    const rows = await this.dataSource.query<{ licence_number: string }[]>(
      'SELECT licence_number FROM watch_entries WHERE user_id = $1 AND licence_number = ANY ($2)',
      [userId, numbers],
    );
    return new Set(rows.map((row) => row.licence_number));
  }

  /** Sets the entry's holder (when `replaceHolder`) and followSuccessor (when not null). */
  async setSuccessorSettings(
    userId: string,
    licenceNumber: string,
    settings: {
      replaceHolder: boolean;
      holder: { firstName: string; surname: string } | null;
      dateOfBirthSealed: string | null;
      followSuccessor: boolean | null;
    },
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE watch_entries SET
         holder = CASE WHEN $3 THEN $4::jsonb ELSE holder END,
         date_of_birth_sealed = CASE WHEN $3 THEN $5 ELSE date_of_birth_sealed END,
         follow_successor = coalesce($6, follow_successor)
       WHERE user_id = $1 AND licence_number = $2`,
      [
        userId,
        licenceNumber,
        settings.replaceHolder,
        settings.holder ? JSON.stringify({ firstName: settings.holder.firstName, surname: settings.holder.surname }) : null,
        settings.dateOfBirthSealed,
        settings.followSuccessor,
      ],
    );
  }

  /**
   * Removes an entry; when it was the number's last, the number's state starts its retention. The state's row lock
   * makes concurrent unwatches and watches of one number take turns, so the last one out always sees it is last.
   * Answers how many entries it removed.
   */
  unwatch(userId: string, licenceNumber: string, now: Date): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT 1 FROM licence_states WHERE world = licence_world($2) AND licence_number = $1 FOR UPDATE', [licenceNumber, userId]);
      const [, affected] = await manager.query<[unknown, number]>('DELETE FROM watch_entries WHERE user_id = $1 AND licence_number = $2', [
        userId,
        licenceNumber,
      ]);
      await manager.query(
        `UPDATE licence_states s SET unwatched_since = $2
         WHERE s.world = licence_world($3) AND s.licence_number = $1
           AND NOT EXISTS (SELECT 1 FROM watch_entries w WHERE w.world = s.world AND w.licence_number = s.licence_number)`,
        [licenceNumber, now, userId],
      );
      return affected;
    });
  }

  /** One page of the user's entries in licence number order, filtered (`today` is YYYY-MM-DD): up to limit + 1, so that the caller knows whether more follow. */
  listPage(userId: string, query: WatchlistQuery, today: string): Promise<WatchEntryRow[]> {
    return this.dataSource.query<WatchEntryRow[]>(
      `SELECT ${ENTRY_COLUMNS}
       FROM ${ENTRY_SOURCE}
       WHERE w.user_id = $1 AND ($2::text IS NULL OR w.licence_number > $2)
         AND ($3::text IS NULL OR upper(CASE WHEN e.result IS NULL THEN 'UNCHECKED'
                                             WHEN e.result->>'status' = 'FOUND' THEN e.result->'licence'->>'status'
                                             ELSE e.result->>'status' END) = $3)
         AND ($4::int IS NULL OR (e.result->>'status' = 'FOUND'
              AND (e.result->'licence'->>'expiryDate')::date BETWEEN $5::date AND $5::date + $4::int))
       ORDER BY w.licence_number LIMIT $6`,
      [userId, query.after, query.status, query.expiringWithinDays, today, query.limit + 1],
    );
  }

  /** The user's entries of these numbers, in licence number order. */
  entries(userId: string, numbers: string[]): Promise<WatchEntryRow[]> {
    return this.dataSource.query<WatchEntryRow[]>(
      `SELECT ${ENTRY_COLUMNS} FROM ${ENTRY_SOURCE}
       WHERE w.user_id = $1 AND w.licence_number = ANY ($2) ORDER BY w.licence_number`,
      [userId, numbers],
    );
  }

  /** What decides whether the numbers may be added to the user's watchlist, in the caller's transaction when it passes one. */
  async count(userId: string, numbers: string[], manager: EntityManager = this.dataSource.manager): Promise<WatchlistCount> {
    const [count] = await manager.query<WatchlistCount[]>(WATCHLIST_COUNT, [userId, numbers]);
    return count;
  }

  /**
   * In the caller's transaction: inserts or updates entries (and the numbers' shared states); returns how many were
   * new. `ensureRoom` throws to roll it all back.
   */
  async insertEntries(
    manager: EntityManager,
    userId: string,
    entries: { licenceNumber: string; reference: string | null }[],
    now: Date,
    ensureRoom: (count: WatchlistCount) => void,
  ): Promise<number> {
    const numbers = entries.map((entry) => entry.licenceNumber);
    // The user's row lock makes its additions take turns, so concurrent ones never pass the cap together; the
    // count runs after it, in a statement of its own, so that it sees what the turn before committed.
    await lockUser(manager, userId, 'NO KEY UPDATE');
    ensureRoom(await this.count(userId, numbers, manager));
    await manager.query(
      `INSERT INTO licence_states (world, licence_number, next_check_at)
       SELECT licence_world($3), number, $2 FROM unnest($1::text[]) AS number ORDER BY number
       ON CONFLICT (world, licence_number) DO UPDATE SET unwatched_since = NULL WHERE licence_states.unwatched_since IS NOT NULL`,
      [numbers, now, userId],
    );
    const rows = await manager.query<{ created: boolean }[]>(
      `INSERT INTO watch_entries (user_id, licence_number, reference, added_at)
       SELECT $1, number, reference, $4 FROM unnest($2::text[], $3::text[]) AS e(number, reference)
       ON CONFLICT (user_id, licence_number) DO UPDATE SET reference = excluded.reference
       RETURNING (xmax = 0) AS created`,
      [userId, numbers, entries.map((entry) => entry.reference), now],
    );
    return rows.filter((row) => row.created).length;
  }

  /** How many distinct numbers (in their worlds) served users watch. */
  async watchedNumbers(): Promise<number> {
    const [{ watched }] = await this.dataSource.query<{ watched: number }[]>(
      `SELECT count(DISTINCT (w.world, w.licence_number))::int AS watched FROM watch_entries w
       JOIN ${this.servedUsers} ON u.id = w.user_id`,
    );
    return watched;
  }

  /**
   * Takes up to `limit` numbers due at `now` and moves them `cycleSeconds` ahead in the same statement (a lease);
   * SKIP LOCKED lets several workers claim at once without sharing a number. Users take turns: each served user's
   * due numbers are ranked by how long they have been due, and a number goes by its best rank among its watchers,
   * so that one user's backlog never holds up another's few numbers.
   */
  async claimDue(now: Date, limit: number, cycleSeconds: number): Promise<DueNumber[]> {
    // TypeORM answers an UPDATE with [rows, affected count].
    const [rows] = await this.dataSource.query<[DueNumber[], number]>(
      `WITH watchers AS (
         SELECT DISTINCT w.user_id FROM watch_entries w JOIN ${this.servedUsers} ON u.id = w.user_id
       ),
       turns AS (
         SELECT due.world, due.licence_number, due.next_check_at, row_number() OVER (PARTITION BY watchers.user_id ORDER BY due.next_check_at) AS turn
         FROM watchers CROSS JOIN LATERAL (
           SELECT s.world, s.licence_number, s.next_check_at FROM watch_entries w JOIN licence_states s ON s.world = w.world AND s.licence_number = w.licence_number
           WHERE w.user_id = watchers.user_id AND s.next_check_at <= $1
           ORDER BY s.next_check_at LIMIT $2
         ) due
       ),
       chosen AS (
         SELECT world, licence_number FROM turns GROUP BY world, licence_number ORDER BY min(turn), min(next_check_at) LIMIT $2
       ),
       due AS (
         SELECT s.world, s.licence_number FROM licence_states s JOIN chosen c ON c.world = s.world AND c.licence_number = s.licence_number
         WHERE s.next_check_at <= $1 FOR UPDATE OF s SKIP LOCKED
       )
       UPDATE licence_states s SET next_check_at = $1::timestamptz + make_interval(secs => $3)
       FROM due WHERE s.world = due.world AND s.licence_number = due.licence_number
       RETURNING s.licence_number AS "licenceNumber", s.world`,
      [now, limit, cycleSeconds],
    );
    return rows;
  }

  /** Deletes the states of numbers nobody has watched for `retentionDays` before `now`. */
  async deleteUnwatchedStates(now: Date, retentionDays: number): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM licence_states s
       WHERE s.unwatched_since < $1::timestamptz - make_interval(days => $2)
         AND NOT EXISTS (SELECT 1 FROM watch_entries w WHERE w.world = s.world AND w.licence_number = s.licence_number)`,
      [now, retentionDays],
    );
  }

  /** The served users watching the number in this world, with its last check there. */
  watchers(licenceNumber: string, world: string): Promise<Watcher[]> {
    return this.dataSource.query<Watcher[]>(
      `SELECT w.user_id AS "userId", w.reference, w.state, u.monthly_quota AS "monthlyQuota", s.checked_at AS "checkedAt"
       FROM watch_entries w JOIN ${this.servedUsers} ON u.id = w.user_id JOIN licence_states s ON s.world = w.world AND s.licence_number = w.licence_number
       WHERE w.licence_number = $1 AND w.world = $2`,
      [licenceNumber, world],
    );
  }

  /** Pauses or resumes the entry; a paused entry keeps the state as of its pause (later answers are paid for by other watchers). */
  async setWatchState(userId: string, licenceNumber: string, state: WatchState, pausedReason: string | null): Promise<void> {
    await this.dataSource.query(
      `UPDATE watch_entries w SET state = $3, paused_reason = $4,
         paused_result = CASE WHEN $3 = 'PAUSED' THEN s.result END,
         paused_checked_at = CASE WHEN $3 = 'PAUSED' THEN s.checked_at END,
         paused_last_changed_at = CASE WHEN $3 = 'PAUSED' THEN s.last_changed_at END
       FROM licence_states s
       WHERE w.user_id = $1 AND w.licence_number = $2 AND s.world = w.world AND s.licence_number = w.licence_number`,
      [userId, licenceNumber, state, pausedReason],
    );
  }

  /** The number's recorded state, locked until the caller's transaction ends (undefined: no state). */
  async lockState(manager: EntityManager, licenceNumber: string, world: string): Promise<RecordedState | undefined> {
    const [state] = await manager.query<RecordedState[]>(
      'SELECT result, expiry_warnings AS "expiryWarnings" FROM licence_states WHERE world = $2 AND licence_number = $1 FOR UPDATE',
      [licenceNumber, world],
    );
    return state;
  }

  async storeState(manager: EntityManager, licenceNumber: string, world: string, update: StateUpdate): Promise<void> {
    await manager.query(
      `UPDATE licence_states SET result = $2, checked_at = $3, expiry_warnings = $4,
         last_changed_at = CASE WHEN $5 THEN $6 ELSE last_changed_at END, next_check_at = $7
       WHERE world = $8 AND licence_number = $1`,
      [licenceNumber, update.result, update.result.checkedAt, update.expiryWarnings, update.changed, update.at, update.nextCheckAt, world],
    );
  }

  /** The served users actively watching the number in this world, with what following a successor needs. */
  successorWatchers(licenceNumber: string, world: string): Promise<SuccessorWatcher[]> {
    return this.dataSource.query<SuccessorWatcher[]>(
      `SELECT w.user_id AS "userId", w.reference, w.holder, w.date_of_birth_sealed AS "dateOfBirthSealed",
              w.follow_successor AS "followSuccessor", u.monthly_quota AS "monthlyQuota"
       FROM watch_entries w JOIN ${this.servedUsers} ON u.id = w.user_id
       WHERE w.licence_number = $1 AND w.world = $2 AND w.state = 'ACTIVE'`,
      [licenceNumber, world],
    );
  }

  /** Makes these numbers of the user's watchlist due at `now` in the user's world (a test user's simulated change). */
  async makeDue(userId: string, licenceNumbers: string[], now: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE licence_states s SET next_check_at = $3
       WHERE s.world = licence_world($1) AND s.licence_number = ANY ($2)
         AND EXISTS (SELECT 1 FROM watch_entries w WHERE w.user_id = $1 AND w.world = s.world AND w.licence_number = s.licence_number)`,
      [userId, licenceNumbers, now],
    );
  }

  async setSuccessor(userId: string, licenceNumber: string, successorNumber: string): Promise<void> {
    await this.dataSource.query('UPDATE watch_entries SET successor_licence_number = $3 WHERE user_id = $1 AND licence_number = $2', [
      userId,
      licenceNumber,
      successorNumber,
    ]);
  }

  /**
   * Watches a successor: its state due at once when new, and the entry unless the user watches it already. Answers
   * whether the entry is new.
   */
  async insertSuccessorEntry(entry: SuccessorEntry): Promise<boolean> {
    await this.dataSource.query(
      `INSERT INTO licence_states (world, licence_number, next_check_at) VALUES (licence_world($3), $1, $2) ON CONFLICT (world, licence_number) DO NOTHING`,
      [entry.licenceNumber, entry.addedAt, entry.userId],
    );
    const inserted = await this.dataSource.query<unknown[]>(
      `INSERT INTO watch_entries (user_id, licence_number, reference, added_at, state, paused_reason, holder, date_of_birth_sealed, follow_successor)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, true)
       ON CONFLICT (user_id, licence_number) DO NOTHING RETURNING 1`,
      [entry.userId, entry.licenceNumber, entry.reference, entry.addedAt, entry.state, entry.pausedReason, entry.holder, entry.dateOfBirthSealed],
    );
    return inserted.length > 0;
  }

  /** The users' watch entries, counted for keys delete-user. */
  async countUserRows(userIds: string[], manager: EntityManager = this.dataSource.manager): Promise<{ watchEntries: number }> {
    const [counts] = await manager.query<{ watchEntries: number }[]>(
      'SELECT count(*)::int AS "watchEntries" FROM watch_entries WHERE user_id = ANY ($1)',
      [userIds],
    );
    return counts;
  }

  /** The numbers the users watch: read before the users go, so that their retention can start after. */
  async watchedBy(manager: EntityManager, userIds: string[]): Promise<string[]> {
    const rows = await manager.query<{ licenceNumber: string }[]>('SELECT licence_number AS "licenceNumber" FROM watch_entries WHERE user_id = ANY ($1)', [
      userIds,
    ]);
    return rows.map((row) => row.licenceNumber);
  }

  /**
   * After deleted users' entries are gone: a live number nobody watches any more starts its retention, as when its
   * last watcher removes it, and the users' own worlds (test sides') go with their states.
   */
  async forgetDeletedWatchers(manager: EntityManager, numbers: string[], worlds: string[]): Promise<void> {
    await manager.query(
      `UPDATE licence_states s SET unwatched_since = now()
        WHERE s.world = '${LIVE_WORLD}' AND s.licence_number = ANY ($1) AND s.unwatched_since IS NULL
          AND NOT EXISTS (SELECT 1 FROM watch_entries w WHERE w.world = s.world AND w.licence_number = s.licence_number)`,
      [numbers],
    );
    await manager.query('DELETE FROM licence_states WHERE world = ANY ($1)', [worlds]);
  }
}
