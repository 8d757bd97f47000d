import { Controller, Get, Query, Render, StreamableFile, UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Requires } from '../auth/requires';
import { ConsoleAnswerFilter } from './console-answer.filter';
import { ActivityPageQuery } from './console-forms';
import { ConsoleActivityService } from './console-activity.service';
import { ConsolePageInterceptor } from './console-page.interceptor';
import { CSV } from './console-routes';
import { ShowsRefusal } from './console-refusal';
import { ConsoleSession, ConsoleSessionGuard } from './console-session.guard';
import { ConsoleVisit } from './console-sessions';
import { refusedActivity } from './form-pages';

/**
 * The account's activity log in the console: the Activity page and its CSV export. Both need what GET /v1/activity
 * needs (`audit`): owners and admins, and sessions signed in with an admin key; anyone else gets the forbidden page.
 */
@ApiExcludeController()
@Controller('console')
@UseFilters(ConsoleAnswerFilter)
@UseInterceptors(ConsolePageInterceptor)
@UseGuards(ConsoleSessionGuard)
@Requires('audit')
export class ConsoleActivityController {
  constructor(private readonly activity: ConsoleActivityService) {}

  @Get('activity')
  @Render('activity')
  @ShowsRefusal('query', refusedActivity)
  activityPage(@ConsoleSession() visit: ConsoleVisit, @Query() query: ActivityPageQuery) {
    return this.activity.page(visit.user, query);
  }

  @Get('activity/export.csv')
  async activityCsv(@ConsoleSession() visit: ConsoleVisit, @Query() query: ActivityPageQuery): Promise<StreamableFile> {
    const csv = await this.activity.csv(visit.user, query);
    return new StreamableFile(csv, { type: CSV, disposition: 'attachment; filename="activity.csv"' });
  }
}
