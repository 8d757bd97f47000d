import { Body, Controller, Get, Param, ParseUUIDPipe, Post, Query, Redirect, Render, Res, UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ConsolePage } from '../console/console-answers';
import { OperatorRequest } from './operator-actions.service';
import { OperatorConsoleService, PartnerSetting } from './operator-console.service';
import { DeleteForm, KeyForm, NewPartnerForm, OperatorForm, OperatorLogQuery, PartnersQuery, ReasonForm, SettingForm } from './operator-forms';
import { OperatorAnswerFilter, OperatorPageInterceptor } from './operator-page.interceptor';
import { OperatorAsks, OperatorSession, OperatorSessionGuard, OwnAccount } from './operator-session.guard';
import { ChangeThenShow, FORM, notFound } from './operator-routes';
import { OPERATOR_SIGN_IN_PATH, OperatorSessions, OperatorVisit } from './operator-sessions';

const PAGE_SIZE = 50;
const PARTNER = new ParseUUIDPipe({ exceptionFactory: notFound });
const SETTINGS: Record<string, PartnerSetting> = {
  quota: 'quota',
  'rate-limit': 'rate-limit',
  'watch-limit': 'watch-limit',
  'live-lookup-limit': 'live-lookup-limit',
};
/** The settings of which 0 means nothing sound (a partner that may send nothing): blank is their default. */
const AT_LEAST_ONE: readonly PartnerSetting[] = ['rate-limit', 'live-lookup-limit'];

const partnerPage = (userId: string) => ({ url: `/operator/partners/${userId}` });

/**
 * The operator console's pages (docs/operations.md): Partners, a partner with its actions, Register, Queues and
 * Operator activity. Every route is behind OperatorSessionGuard; a change takes a reason, and goes through the
 * operator's actions, as the admin command's do.
 */
@ApiExcludeController()
@Controller('operator')
@UseFilters(OperatorAnswerFilter)
@UseInterceptors(OperatorPageInterceptor)
@UseGuards(OperatorSessionGuard)
export class OperatorConsoleController {
  constructor(
    private readonly console: OperatorConsoleService,
    private readonly sessions: OperatorSessions,
  ) {}

  /** Any operator's own: a `support` operator signs out too. */
  @Post('sign-out')
  @RouteConfig(FORM)
  @Redirect(OPERATOR_SIGN_IN_PATH, 303)
  @OwnAccount()
  async signOut(@Res({ passthrough: true }) reply: FastifyReply, @OperatorSession() visit: OperatorVisit, @Body() _form: OperatorForm): Promise<void> {
    await this.sessions.signOut(reply, visit);
  }

  @Get('partners')
  @Render('partners')
  async partners(@Query() query: PartnersQuery) {
    return { ...(await this.console.partners(query.q || null, query.sort, PAGE_SIZE, query.cursor ?? 0)), error: null };
  }

  /** A new partner and its first owner's invitation: the partner's page, with the link shown once. */
  @Post('partners')
  @RouteConfig(FORM)
  @Render('partner')
  async createPartner(@OperatorAsks() asks: OperatorRequest, @Body() form: NewPartnerForm) {
    const created = await this.console.createPartner(asks, { name: form.name, quota: form.quota, ownerEmail: form.ownerEmail });
    if ('error' in created) {
      throw new ConsolePage('partners', { ...(await this.console.partners(null, 'name', PAGE_SIZE, 0)), error: created.error }, 400);
    }
    return { ...(await this.partnerPage(created.userId)), invitationLink: created.link };
  }

  @Get('partners/:id')
  @Render('partner')
  partner(@Param('id', PARTNER) userId: string) {
    return this.partnerPage(userId);
  }

  /** A partner's page, with nothing shown once; the not-found page when there is no such partner. */
  private async partnerPage(userId: string, error: string | null = null) {
    const page = await this.console.partner(userId);
    if (!page) throw notFound();
    return { ...page, error, createdKey: null, invitationLink: null };
  }

  @ChangeThenShow('partners/:id/settings/:setting')
  async changeSetting(
    @OperatorAsks() asks: OperatorRequest,
    @Param('id', PARTNER) userId: string,
    @Param('setting') setting: string,
    @Body() form: SettingForm,
  ) {
    if (!(setting in SETTINGS)) throw notFound();
    if (form.value === 0 && AT_LEAST_ONE.includes(SETTINGS[setting])) {
      throw new ConsolePage(
        'partner',
        await this.partnerPage(userId, 'This limit is at least 1; leave it blank for the default. Nothing was changed.'),
        400,
      );
    }
    if (!(await this.console.changeSetting(asks, userId, SETTINGS[setting], form.value))) throw notFound();
    return partnerPage(userId);
  }

  /** Clears the member's second factor and ends their sessions: they set a new factor at their next sign-in. */
  @ChangeThenShow('partners/:id/members/:memberId/reset-factor')
  async resetMemberFactor(
    @OperatorAsks() asks: OperatorRequest,
    @Param('id', PARTNER) userId: string,
    @Param('memberId', PARTNER) memberId: string,
    @Body() _form: ReasonForm,
  ) {
    if (!(await this.console.resetMemberFactor(asks, userId, memberId))) throw notFound();
    return partnerPage(userId);
  }

  @ChangeThenShow('partners/:id/disable')
  async disable(@OperatorAsks() asks: OperatorRequest, @Param('id', PARTNER) userId: string, @Body() _form: ReasonForm) {
    if (!(await this.console.setDisabled(asks, userId, true))) throw notFound();
    return partnerPage(userId);
  }

  @ChangeThenShow('partners/:id/enable')
  async enable(@OperatorAsks() asks: OperatorRequest, @Param('id', PARTNER) userId: string, @Body() _form: ReasonForm) {
    if (!(await this.console.setDisabled(asks, userId, false))) throw notFound();
    return partnerPage(userId);
  }

  /** A new key is shown once, on the partner's page itself. */
  @Post('partners/:id/keys')
  @RouteConfig(FORM)
  @Render('partner')
  async issueKey(@OperatorAsks() asks: OperatorRequest, @Param('id', PARTNER) userId: string, @Body() form: KeyForm) {
    const created = await this.console.issueKey(asks, userId, form.name);
    return { ...(await this.partnerPage(userId)), createdKey: created.key };
  }

  @ChangeThenShow('partners/:id/keys/:keyId/revoke')
  async revokeKey(
    @OperatorAsks() asks: OperatorRequest,
    @Param('id', PARTNER) userId: string,
    @Param('keyId', PARTNER) keyId: string,
    @Body() _form: ReasonForm,
  ) {
    if (!(await this.console.revokeKey(asks, keyId))) throw notFound();
    return partnerPage(userId);
  }

  /** Deletes the partner once its name is typed exactly; otherwise its page again, with nothing done. */
  @ChangeThenShow('partners/:id/delete')
  async deletePartner(@OperatorAsks() asks: OperatorRequest, @Param('id', PARTNER) userId: string, @Body() form: DeleteForm) {
    const outcome = await this.console.deletePartner(asks, userId, form.confirmName);
    if (outcome === 'unknown') throw notFound();
    if (outcome === 'mismatch') {
      throw new ConsolePage('partner', await this.partnerPage(userId, 'The name typed is not the partner’s name. Nothing was deleted.'), 400);
    }
    return { url: '/operator/partners' };
  }

  @Get('register')
  @Render('register')
  register() {
    return this.console.register();
  }

  @Get('queues')
  @Render('queues')
  queues() {
    return this.console.queues();
  }

  @Get('activity')
  @Render('activity')
  activity(@Query() query: OperatorLogQuery) {
    return this.console.operatorActivity(query.cursor ?? null);
  }
}
