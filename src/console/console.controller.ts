import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { serverUrl } from '../http/server-url';
import { RosterDto } from '../batches/dto/roster.dto';
import { CSV_ROSTER_BODY } from '../batches/roster-csv';
import { ConsoleSessionBodyGate } from '../http/body-gates';
import { FORM_BODY } from '../http/decode-request-body';
import { rateLimitFields } from '../rate-limit/rate-limit-fields';
import { UserRateLimiter } from '../rate-limit/user-rate-limiter';
import { ConsoleForm, CreateKeyForm, SignInForm, VerifyForm, WatchForm, WebhookForm } from './console-forms';
import { ResourceIdPipe } from '../validation/resource-id.pipe';
import { ConsoleSessions, ConsoleVisit, SIGN_IN_PATH } from './console-sessions';
import { ConsoleService } from './console.service';
import { waitInWords } from './wait-in-words';

const FORM = { requestBody: FORM_BODY };
/** A roster upload: as large as the API's, read past an ordinary form's size only for a live session. */
const CONSOLE_ROSTER = { requestBody: CSV_ROSTER_BODY, bodyGate: ConsoleSessionBodyGate };
const WEBHOOKS_PAGE = '/console/webhooks';
const WATCHLIST_PAGE = '/console/watchlist';
const KEYS_PAGE = '/console/keys';
const WEBHOOK_ID = new ResourceIdPipe('WEBHOOK_NOT_FOUND');
const DELIVERY_ID = new ResourceIdPipe('DELIVERY_NOT_FOUND');

/** The console's pages: server-rendered, each behind a session; forms post back here (see docs/console.md). */
@ApiExcludeController()
@Controller('console')
export class ConsoleController {
  constructor(
    private readonly sessions: ConsoleSessions,
    private readonly console: ConsoleService,
    private readonly rates: UserRateLimiter,
    private readonly config: AppConfig,
  ) {}

  /**
   * Renders a page. Pages hold a user's data, so no cache may keep them. Under the service's no-referrer policy
   * browsers send `Origin: null` with a form, so the console's pages send their origin to their own site only.
   */
  private render(reply: FastifyReply, template: string, visit: ConsoleVisit | null, data: object, status = 200): FastifyReply {
    return reply
      .status(status)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'same-origin')
      .view(template, { ...data, page: template, csrfToken: visit?.csrfToken ?? null, signedIn: visit !== null, mode: visit?.user.mode ?? null });
  }

  /**
   * The visit of a page, or null with the answer already given: a redirect to the sign-in page when there is no live
   * session, or 429 when the user has no token left. The console takes its tokens from the user's own bucket, the
   * one its API keys draw from, so a browser is no way around the API's rate limit.
   */
  private async visit(request: FastifyRequest, reply: FastifyReply): Promise<ConsoleVisit | null> {
    const visit = await this.sessions.visit(request);
    if (!visit) {
      void reply.redirect(SIGN_IN_PATH, 303);
      return null;
    }
    const decision = await this.rates.take(visit.user.userId, visit.rateLimitPerSecond);
    void reply.headers(rateLimitFields(decision.policy, decision));
    if (decision.admitted) return visit;
    void reply.header('retry-after', String(decision.secondsToNextToken));
    void this.render(reply, 'rate-limited', visit, { wait: waitInWords(decision.secondsToNextToken) }, 429);
    return null;
  }

  /**
   * As visit, for a change: 403 unless it came from the console's own page with the session's token (a form's
   * _csrf field, or the X-CSRF-Token header of the page script's uploads).
   */
  private async change(request: FastifyRequest, reply: FastifyReply, token: unknown): Promise<ConsoleVisit | null> {
    this.sessions.checkOrigin(request);
    const visit = await this.visit(request, reply);
    if (visit) this.sessions.checkChange(request, token, visit.csrfToken);
    return visit;
  }

  /** A form that changes something, then back to its page (Post/Redirect/Get, so a reload sends nothing twice). */
  private async changeThenShow(
    request: FastifyRequest,
    reply: FastifyReply,
    form: ConsoleForm,
    run: (visit: ConsoleVisit) => Promise<unknown>,
    page: string,
  ): Promise<FastifyReply | void> {
    const visit = await this.change(request, reply, form._csrf);
    if (!visit) return;
    await run(visit);
    return reply.redirect(page, 303);
  }

  @Get()
  root(@Res() reply: FastifyReply): FastifyReply {
    return reply.redirect('/console/overview', 303);
  }

  @Get('sign-in')
  signInPage(@Req() request: FastifyRequest, @Res() reply: FastifyReply): FastifyReply {
    return this.render(reply, 'sign-in', null, { signInToken: this.sessions.signInToken(request, reply), error: null });
  }

  @Post('sign-in')
  @RouteConfig(FORM)
  async signIn(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() form: SignInForm): Promise<FastifyReply> {
    const again = (error: ApiError) =>
      this.render(reply, 'sign-in', null, { signInToken: this.sessions.signInToken(request, reply), error: error.publicMessage }, error.status);
    let signedIn: boolean;
    try {
      signedIn = await this.sessions.signIn(request, reply, form._csrf, form.apiKey.trim());
    } catch (error) {
      if (error instanceof ApiError && error.code === 'TOO_MANY_SIGN_INS') return again(error);
      throw error;
    }
    if (!signedIn) return again(new ApiError('UNAUTHORIZED'));
    return reply.redirect('/console/overview', 303);
  }

  @Post('sign-out')
  @RouteConfig(FORM)
  async signOut(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() form: ConsoleForm): Promise<FastifyReply | void> {
    const visit = await this.change(request, reply, form._csrf);
    if (!visit) return;
    await this.sessions.signOut(request, reply, visit);
    return reply.redirect(SIGN_IN_PATH, 303);
  }

  @Get('overview')
  async overview(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply | void> {
    const visit = await this.visit(request, reply);
    if (visit) return this.render(reply, 'overview', visit, await this.console.overview(visit.user));
  }

  @Get('verify')
  async verifyPage(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply | void> {
    const visit = await this.visit(request, reply);
    if (visit) return this.render(reply, 'verify', visit, { outcome: null });
  }

  @Post('verify')
  @RouteConfig(FORM)
  async verify(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() form: VerifyForm): Promise<FastifyReply | void> {
    const visit = await this.change(request, reply, form._csrf);
    if (!visit) return;
    const outcome = await this.console.verify(visit.user, form, request.id);
    return this.render(reply, 'verify', visit, { outcome });
  }

  @Get('keys')
  async keysPage(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply | void> {
    const visit = await this.visit(request, reply);
    if (visit) return this.render(reply, 'keys', visit, { keys: await this.console.keyList(visit.user), created: null, error: null });
  }

  @Post('keys')
  @RouteConfig(FORM)
  async createKey(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() form: CreateKeyForm): Promise<FastifyReply | void> {
    const visit = await this.change(request, reply, form._csrf);
    if (!visit) return;
    const created = await this.console.createKey(visit.user, form.name, form.mode);
    const keys = await this.console.keyList(visit.user);
    if ('error' in created) return this.render(reply, 'keys', visit, { keys, created: null, error: created.error }, 400);
    return this.render(reply, 'keys', visit, { keys, created, error: null }, 201);
  }

  @Post('keys/:id/revoke')
  @RouteConfig(FORM)
  async revokeKey(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('id') keyId: string,
    @Body() form: ConsoleForm,
  ): Promise<FastifyReply | void> {
    const visit = await this.change(request, reply, form._csrf);
    if (!visit) return;
    await this.console.revokeKey(visit.user, keyId);
    if (keyId !== visit.user.keyId) return reply.redirect(KEYS_PAGE, 303);
    // The session's own key: the session ends with it.
    await this.sessions.signOut(request, reply, visit);
    return reply.redirect(SIGN_IN_PATH, 303);
  }

  @Get('rosters')
  async rostersPage(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply | void> {
    const visit = await this.visit(request, reply);
    if (visit) return this.render(reply, 'rosters', visit, { batches: await this.console.rosterList(visit.user) });
  }

  /** The page script's upload of a roster file (text/csv), validated as POST /v1/batches validates it. */
  @Post('rosters')
  @HttpCode(201)
  @RouteConfig(CONSOLE_ROSTER)
  async checkRoster(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Headers('x-csrf-token') token: string | undefined,
    @Body() roster: RosterDto,
  ): Promise<FastifyReply | void> {
    const visit = await this.change(request, reply, token);
    if (visit) return reply.status(201).send(await this.console.checkRoster(visit.user, roster, request.id));
  }

  @Get('rosters/:id')
  async roster(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('id') batchId: string,
    @Query('outcome') outcome: string | undefined,
  ): Promise<FastifyReply | void> {
    const visit = await this.visit(request, reply);
    if (visit) return this.render(reply, 'roster', visit, await this.console.roster(visit.user, batchId, outcome));
  }

  @Get('rosters/:id/results.csv')
  async rosterCsv(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('id') batchId: string): Promise<FastifyReply | void> {
    const visit = await this.visit(request, reply);
    if (!visit) return;
    const csv = await this.console.rosterCsv(visit.user, batchId);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="batch-${batchId}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  }

  @Get('history')
  async historyPage(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query() query: Record<string, unknown>): Promise<FastifyReply | void> {
    const visit = await this.visit(request, reply);
    if (visit) return this.render(reply, 'history', visit, await this.console.historyPage(visit.user, query));
  }

  @Get('history/export.csv')
  async historyCsv(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query() query: Record<string, unknown>): Promise<FastifyReply | void> {
    const visit = await this.visit(request, reply);
    if (!visit) return;
    const csv = await this.console.historyCsv(visit.user, query);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="verifications.csv"')
      .header('cache-control', 'no-store')
      .send(csv);
  }

  @Get('history/:id/receipt')
  async historyReceipt(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string): Promise<FastifyReply | void> {
    const visit = await this.visit(request, reply);
    if (!visit) return;
    const receipt = await this.console.historyReceipt(visit.user, id, serverUrl(this.config.get('PUBLIC_BASE_URL'), request));
    return reply
      .header('content-type', 'application/jose')
      .header('content-disposition', `attachment; filename="receipt-${id}.jws"`)
      .header('cache-control', 'no-store')
      .send(receipt);
  }

  @Get('watchlist')
  async watchlistPage(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Query('cursor') cursor: string | undefined,
  ): Promise<FastifyReply | void> {
    const visit = await this.visit(request, reply);
    if (visit) return this.render(reply, 'watchlist', visit, { ...(await this.console.watchPage(visit.user, cursor)), error: null });
  }

  @Post('watchlist')
  @RouteConfig(FORM)
  async watch(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() form: WatchForm): Promise<FastifyReply | void> {
    const visit = await this.change(request, reply, form._csrf);
    if (!visit) return;
    const error = await this.console.watch(visit.user, form.licenceNumber, form.reference);
    if (error === null) return reply.redirect(WATCHLIST_PAGE, 303);
    return this.render(reply, 'watchlist', visit, { ...(await this.console.watchPage(visit.user, undefined)), error }, 400);
  }

  @Post('watchlist/import')
  @HttpCode(200)
  @RouteConfig(CONSOLE_ROSTER)
  async importWatchlist(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Headers('x-csrf-token') token: string | undefined,
    @Body() roster: RosterDto,
  ): Promise<FastifyReply | void> {
    const visit = await this.change(request, reply, token);
    if (visit) return reply.send(await this.console.importWatchlist(visit.user, roster));
  }

  @Post('watchlist/:licenceNumber/remove')
  @RouteConfig(FORM)
  async unwatch(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('licenceNumber') licenceNumber: string,
    @Body() form: ConsoleForm,
  ): Promise<FastifyReply | void> {
    return this.changeThenShow(request, reply, form, (visit) => this.console.unwatch(visit.user, licenceNumber), WATCHLIST_PAGE);
  }

  private async webhooksPage(reply: FastifyReply, visit: ConsoleVisit, shown: { secret?: string; url?: string; error?: string }, status = 200) {
    return this.render(reply, 'webhooks', visit, { ...(await this.console.webhooks(visit.user)), shown }, status);
  }

  @Get('webhooks')
  async webhooks(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply | void> {
    const visit = await this.visit(request, reply);
    if (visit) return this.webhooksPage(reply, visit, {});
  }

  @Post('webhooks')
  @RouteConfig(FORM)
  async addWebhook(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() form: WebhookForm): Promise<FastifyReply | void> {
    const visit = await this.change(request, reply, form._csrf);
    if (!visit) return;
    const added = await this.console.addWebhook(visit.user, form);
    return this.webhooksPage(reply, visit, added, 'error' in added ? 400 : 201);
  }

  @Post('webhooks/:id/test')
  @RouteConfig(FORM)
  async testWebhook(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('id', WEBHOOK_ID) id: string,
    @Body() form: ConsoleForm,
  ): Promise<FastifyReply | void> {
    return this.changeThenShow(request, reply, form, (visit) => this.console.testWebhook(visit.user, id), WEBHOOKS_PAGE);
  }

  @Post('webhooks/:id/rotate-secret')
  @RouteConfig(FORM)
  async rotateWebhookSecret(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('id', WEBHOOK_ID) id: string,
    @Body() form: ConsoleForm,
  ): Promise<FastifyReply | void> {
    const visit = await this.change(request, reply, form._csrf);
    if (!visit) return;
    const { secret } = await this.console.rotateWebhookSecret(visit.user, id);
    return this.webhooksPage(reply, visit, { secret });
  }

  @Post('webhooks/:id/remove')
  @RouteConfig(FORM)
  async removeWebhook(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('id', WEBHOOK_ID) id: string,
    @Body() form: ConsoleForm,
  ): Promise<FastifyReply | void> {
    return this.changeThenShow(request, reply, form, (visit) => this.console.removeWebhook(visit.user, id), WEBHOOKS_PAGE);
  }

  @Post('webhooks/:id/deliveries/:deliveryId/retry')
  @RouteConfig(FORM)
  async retryDelivery(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('id', WEBHOOK_ID) id: string,
    @Param('deliveryId', DELIVERY_ID) deliveryId: string,
    @Body() form: ConsoleForm,
  ): Promise<FastifyReply | void> {
    const retry = (visit: ConsoleVisit) => this.console.retryDelivery(visit.user, id, deliveryId);
    return this.changeThenShow(request, reply, form, retry, WEBHOOKS_PAGE);
  }
}
