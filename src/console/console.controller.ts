import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Render,
  Req,
  Res,
  StreamableFile,
  UseFilters,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RosterDto } from '../common/roster.dto';
import { CSV_ROSTER_BODY } from '../batches/roster-csv';
import { ConsoleSessionBodyGate } from '../http/body-gates';
import { ConsoleForm, CreateKeyForm, HistoryQuery, SideSwitchForm, VerifyForm, WatchForm, WebhookForm, WebhookUrlForm } from './console-forms';
import { RecordsExportQuery } from '../verification-records/dto/verifications-query.dto';
import { ResourceIdPipe } from '../validation/resource-id.pipe';
import { ConsoleAnswerFilter } from './console-answer.filter';
import { ConsolePage } from './console-answers';
import { ConsolePageInterceptor } from './console-page.interceptor';
import { ShowsRefusal } from './console-refusal';
import { refusedHistory, refusedVerify } from './form-pages';
import { ConsoleOrigin, ConsoleSession, ConsoleSessionGuard } from './console-session.guard';
import { ConsoleSessions, ConsoleVisit, SIGN_IN_PATH } from './console-sessions';
import { ConsoleService } from './console.service';
import { CSV, FORM, FormThenShow } from './console-routes';
import { Requires } from '../auth/requires';
import type { ActivityOrigin } from '../activity/activity-log';

/** A roster upload: as large as the API's, read past an ordinary form's size only for a live session. */
const CONSOLE_ROSTER = { requestBody: CSV_ROSTER_BODY, bodyGate: ConsoleSessionBodyGate };
const WEBHOOKS_PAGE = '/console/webhooks';
const WATCHLIST_PAGE = '/console/watchlist';
const KEYS_PAGE = '/console/keys';
const WEBHOOK_ID = new ResourceIdPipe('WEBHOOK_NOT_FOUND');
// eslint-disable-next-line no-useless-assignment -- read by a parameter decorator, which the rule does not see
const DELIVERY_ID = new ResourceIdPipe('DELIVERY_NOT_FOUND');

/** A file the browser saves rather than shows. */
const download = (content: string, type: string, filename: string) =>
  new StreamableFile(Buffer.from(content), { type, disposition: `attachment; filename="${filename}"` });

/**
 * The console's pages behind a session (see docs/console.md). ConsoleSessionGuard opens every request: session,
 * rate limit, and for a change its origin and CSRF token. A page is `@Render()`ed; a form that changes something
 * goes back to its page (`@FormThenShow`, Nest's `@Redirect()`), and a refused one is its page again, thrown as a
 * ConsolePage with its status. Verify and History show the API's refusal of what they ask on the page itself
 * (`@ShowsRefusal`), the global pipe's included.
 */
@ApiExcludeController()
@Controller('console')
@UseFilters(ConsoleAnswerFilter)
@UseInterceptors(ConsolePageInterceptor)
@UseGuards(ConsoleSessionGuard)
@Requires('read')
export class ConsoleController {
  constructor(
    private readonly sessions: ConsoleSessions,
    private readonly console: ConsoleService,
  ) {}

  /** Signs out: the reply is taken (passed through) only to drop the session's cookie. */
  @FormThenShow('sign-out', SIGN_IN_PATH)
  async signOut(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @ConsoleSession() visit: ConsoleVisit,
    @Body() _form: ConsoleForm,
  ): Promise<void> {
    await this.sessions.signOut(request, reply, visit);
  }

  /**
   * The Test mode switch: a member's session moves to the account's other side, under a new id (the reply is taken
   * only to set its cookie), and the overview shows it.
   */
  @FormThenShow('test-mode', '/console/overview')
  async switchSide(@Res({ passthrough: true }) reply: FastifyReply, @ConsoleSession() visit: ConsoleVisit, @Body() form: SideSwitchForm): Promise<void> {
    await this.sessions.switchSide(reply, visit, form.mode);
  }

  @Get('overview')
  @Render('overview')
  overview(@ConsoleSession() visit: ConsoleVisit) {
    return this.console.overview(visit.user);
  }

  @Get('verify')
  @Requires('check')
  @Render('verify')
  verifyPage() {
    return { outcome: null };
  }

  @Post('verify')
  @Requires('check')
  @HttpCode(200)
  @RouteConfig(FORM)
  @Render('verify')
  @ShowsRefusal('body', refusedVerify)
  async verify(@Req() request: FastifyRequest, @ConsoleSession() visit: ConsoleVisit, @Body() form: VerifyForm) {
    return { outcome: await this.console.verify(visit.user, form, request.id) };
  }

  @Get('keys')
  @Requires('integrate')
  @Render('keys')
  async keysPage(@ConsoleSession() visit: ConsoleVisit) {
    return { ...(await this.console.keysPage(visit.user)), created: null, error: null };
  }

  @Post('keys')
  @Requires('integrate')
  @RouteConfig(FORM)
  @Render('keys')
  async createKey(@ConsoleSession() visit: ConsoleVisit, @ConsoleOrigin() origin: ActivityOrigin, @Body() form: CreateKeyForm) {
    const created = await this.console.createKey(origin, visit.user, form.name, form.mode, form.role);
    const page = await this.console.keysPage(visit.user);
    if ('error' in created) throw new ConsolePage('keys', { ...page, created: null, error: created.error }, 400);
    return { ...page, created, error: null };
  }

  /** Revoking the session's own key ends the session with it: the reply is taken only to drop its cookie. */
  @FormThenShow('keys/:id/revoke', KEYS_PAGE)
  @Requires('integrate')
  async revokeKey(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @ConsoleSession() visit: ConsoleVisit,
    @ConsoleOrigin() origin: ActivityOrigin,
    @Param('id') keyId: string,
    @Body() _form: ConsoleForm,
  ): Promise<{ url: string } | void> {
    await this.console.revokeKey(origin, visit.user, keyId);
    if (keyId !== visit.user.keyId) return;
    await this.sessions.signOut(request, reply, visit);
    return { url: SIGN_IN_PATH };
  }

  @Get('rosters')
  @Render('rosters')
  async rostersPage(@ConsoleSession() visit: ConsoleVisit) {
    return { batches: await this.console.rosterList(visit.user) };
  }

  /** The page script's upload of a roster file (text/csv), validated as POST /v1/batches validates it. */
  @Post('rosters')
  @Requires('check')
  @RouteConfig(CONSOLE_ROSTER)
  checkRoster(@Req() request: FastifyRequest, @ConsoleSession() visit: ConsoleVisit, @Body() roster: RosterDto): Promise<{ id: string }> {
    return this.console.checkRoster(visit.user, roster, request.id);
  }

  @Get('rosters/:id')
  @Render('roster')
  roster(@ConsoleSession() visit: ConsoleVisit, @Param('id') batchId: string, @Query('outcome') outcome: string | undefined) {
    return this.console.roster(visit.user, batchId, outcome);
  }

  @Get('rosters/:id/results.csv')
  async rosterCsv(@ConsoleSession() visit: ConsoleVisit, @Param('id') batchId: string): Promise<StreamableFile> {
    return download(await this.console.rosterCsv(visit.user, batchId), CSV, `batch-${batchId}.csv`);
  }

  @Get('history')
  @Render('history')
  @ShowsRefusal('query', refusedHistory)
  historyPage(@ConsoleSession() visit: ConsoleVisit, @Query() query: HistoryQuery) {
    return this.console.historyPage(visit.user, query);
  }

  @Get('history/export.csv')
  async historyCsv(@ConsoleSession() visit: ConsoleVisit, @Query() period: RecordsExportQuery): Promise<StreamableFile> {
    const csv = await this.console.historyCsv(visit.user, period);
    return new StreamableFile(csv, { type: CSV, disposition: 'attachment; filename="verifications.csv"' });
  }

  @Get('history/:id/receipt')
  async historyReceipt(@ConsoleSession() visit: ConsoleVisit, @Param('id') id: string): Promise<StreamableFile> {
    const receipt = await this.console.historyReceipt(visit.user, id);
    return download(receipt, 'application/jose', `receipt-${id}.jws`);
  }

  @Get('watchlist')
  @Render('watchlist')
  async watchlistPage(@ConsoleSession() visit: ConsoleVisit, @Query('cursor') cursor: string | undefined) {
    return { ...(await this.console.watchPage(visit.user, cursor)), error: null };
  }

  @FormThenShow('watchlist', WATCHLIST_PAGE)
  @Requires('check')
  async watch(@ConsoleSession() visit: ConsoleVisit, @Body() form: WatchForm): Promise<void> {
    const error = await this.console.watch(visit.user, form.licenceNumber, form.reference);
    if (error !== null) throw new ConsolePage('watchlist', { ...(await this.console.watchPage(visit.user, undefined)), error }, 400);
  }

  @Post('watchlist/import')
  @Requires('check')
  @HttpCode(200)
  @RouteConfig(CONSOLE_ROSTER)
  importWatchlist(
    @ConsoleSession() visit: ConsoleVisit,
    @ConsoleOrigin() origin: ActivityOrigin,
    @Body() roster: RosterDto,
  ): Promise<{ added: number; updated: number }> {
    return this.console.importWatchlist(origin, visit.user, roster);
  }

  @FormThenShow('watchlist/:licenceNumber/remove', WATCHLIST_PAGE)
  @Requires('check')
  async unwatch(@ConsoleSession() visit: ConsoleVisit, @Param('licenceNumber') licenceNumber: string, @Body() _form: ConsoleForm): Promise<void> {
    await this.console.unwatch(visit.user, licenceNumber);
  }

  @Get('webhooks')
  @Requires('integrate')
  @Render('webhooks')
  webhooks(@ConsoleSession() visit: ConsoleVisit) {
    return this.console.webhooksPage(visit.user, {});
  }

  @Post('webhooks')
  @Requires('integrate')
  @RouteConfig(FORM)
  @Render('webhooks')
  async addWebhook(@ConsoleSession() visit: ConsoleVisit, @ConsoleOrigin() origin: ActivityOrigin, @Body() form: WebhookForm) {
    const added = await this.console.addWebhook(origin, visit.user, form);
    if ('error' in added) throw new ConsolePage('webhooks', await this.console.webhooksPage(visit.user, added), 400);
    return this.console.webhooksPage(visit.user, added);
  }

  @Post('webhooks/:id/url')
  @Requires('integrate')
  @HttpCode(200)
  @RouteConfig(FORM)
  @Render('webhooks')
  async changeWebhookUrl(
    @ConsoleSession() visit: ConsoleVisit,
    @ConsoleOrigin() origin: ActivityOrigin,
    @Param('id', WEBHOOK_ID) id: string,
    @Body() { url }: WebhookUrlForm,
  ) {
    const changed = await this.console.changeWebhookUrl(origin, visit.user, id, { url });
    if ('error' in changed) throw new ConsolePage('webhooks', await this.console.webhooksPage(visit.user, changed), 400);
    return this.console.webhooksPage(visit.user, changed);
  }

  @FormThenShow('webhooks/:id/test', WEBHOOKS_PAGE)
  @Requires('integrate')
  async testWebhook(@ConsoleSession() visit: ConsoleVisit, @Param('id', WEBHOOK_ID) id: string, @Body() _form: ConsoleForm): Promise<void> {
    await this.console.testWebhook(visit.user, id);
  }

  @Post('webhooks/:id/rotate-secret')
  @Requires('integrate')
  @HttpCode(200)
  @RouteConfig(FORM)
  @Render('webhooks')
  async rotateWebhookSecret(
    @ConsoleSession() visit: ConsoleVisit,
    @ConsoleOrigin() origin: ActivityOrigin,
    @Param('id', WEBHOOK_ID) id: string,
    @Body() _form: ConsoleForm,
  ) {
    const { secret } = await this.console.rotateWebhookSecret(origin, visit.user, id);
    return this.console.webhooksPage(visit.user, { secret });
  }

  @FormThenShow('webhooks/:id/remove', WEBHOOKS_PAGE)
  @Requires('integrate')
  async removeWebhook(
    @ConsoleSession() visit: ConsoleVisit,
    @ConsoleOrigin() origin: ActivityOrigin,
    @Param('id', WEBHOOK_ID) id: string,
    @Body() _form: ConsoleForm,
  ): Promise<void> {
    await this.console.removeWebhook(origin, visit.user, id);
  }

  @FormThenShow('webhooks/:id/deliveries/:deliveryId/retry', WEBHOOKS_PAGE)
  @Requires('integrate')
  async retryDelivery(
    @ConsoleSession() visit: ConsoleVisit,
    @Param('id', WEBHOOK_ID) id: string,
    @Param('deliveryId', DELIVERY_ID) deliveryId: string,
    @Body() _form: ConsoleForm,
  ): Promise<void> {
    await this.console.retryDelivery(visit.user, id, deliveryId);
  }
}
