import { Injectable } from '@nestjs/common';
import { stringify } from 'csv-stringify';
import { pipeline, Readable } from 'node:stream';
import { ActivityLog } from '../activity/activity-log';
import { ApiKeysService } from '../auth/api-keys.service';
import { AuthenticatedUser } from '../auth/authenticated-user';
import { activityFilters, ActivityQuery } from '../auth/dto/activity.dto';
import { DOWNLOAD_CSV } from '../common/csv-cells';
import { MembersService } from '../members/members.service';
import { pageRequest } from '../validation/paging';
import { ACTIVITY_CSV_COLUMNS, ACTIVITY_FORM, activityCsvCells, ActorNames, actorWords, changesWords, targetWords } from './activity-view';
import { activityPageFilters } from './form-pages';

/**
 * The Activity page and its CSV export: the account's activity log read through ActivityLog's own list (GET
 * /v1/activity's query, filters and cursor), its actors named as the account knows them.
 */
@Injectable()
export class ConsoleActivityService {
  constructor(
    private readonly log: ActivityLog,
    private readonly keys: ApiKeysService,
    private readonly members: MembersService,
  ) {}

  private async names(userId: string): Promise<ActorNames> {
    const [members, keys] = await Promise.all([this.members.displayNames(userId), this.keys.keyPrefixes(userId)]);
    return { members, keys };
  }

  /** One page of events, newest first, as GET /v1/activity pages them; a bad filter is shown on the page (`@ShowsRefusal`). */
  async page(user: AuthenticatedUser, query: ActivityQuery) {
    const [names, { events, nextCursor }] = await Promise.all([
      this.names(user.userId),
      this.log.list(user.userId, activityFilters(query), pageRequest(query)),
    ]);
    return {
      ...ACTIVITY_FORM,
      filters: activityPageFilters(query),
      actors: { members: [...names.members], keys: [...names.keys] },
      rows: events.map((event) => ({
        event,
        actor: actorWords(event.actor, names),
        target: targetWords(event.target, names),
        changes: changesWords(event.changes),
      })),
      nextCursor,
      error: null,
    };
  }

  /** Every event under the page's filters (its paging aside), newest first, as CSV read from the log as it is taken. */
  async csv(user: AuthenticatedUser, query: ActivityQuery): Promise<Readable> {
    const names = await this.names(user.userId);
    const events = await this.log.everyEvent(user.userId, activityFilters(query));
    const rows = Readable.from(
      (async function* () {
        for await (const event of events) yield activityCsvCells(event, names);
      })(),
    );
    const csv = stringify({ ...DOWNLOAD_CSV, header: true, columns: [...ACTIVITY_CSV_COLUMNS] });
    // A failure mid-way (the client went away, the database failed) ends the download short; pipeline closes both.
    pipeline(rows, csv, () => undefined);
    return csv;
  }
}
