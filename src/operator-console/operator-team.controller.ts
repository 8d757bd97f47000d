import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Render, Req, UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ConsolePage } from '../console/console-answers';
import { OperatorRequest } from './operator-actions.service';
import { OPERATOR_CHANGE_MESSAGES, OperatorChange } from './operator-change';
import { OperatorForm, OperatorRoleForm, PasskeyForm, ReasonForm } from './operator-forms';
import { OperatorAnswerFilter, OperatorPageInterceptor } from './operator-page.interceptor';
import { OperatorPasskeys } from './operator-passkeys';
import { OperatorRoster } from './operator-roster';
import { ChangeThenShow, FORM, notFound } from './operator-routes';
import { OperatorAsks, OperatorSession, OperatorSessionGuard, OwnAccount } from './operator-session.guard';
import { OperatorVisit } from './operator-sessions';

const UUID = new ParseUUIDPipe({ exceptionFactory: notFound });
const OPERATORS_PAGE = '/operator/operators';
const ACCOUNT_PAGE = '/operator/account';

/**
 * The operators themselves: the Operators page (every operator; an `operator` disables, enables, changes the role of
 * and removes another, with a reason, through OperatorRoster as the admin command does) and Your account (any
 * operator's own passkeys). Behind OperatorSessionGuard, as every operator page.
 */
@ApiExcludeController()
@Controller('operator')
@UseFilters(OperatorAnswerFilter)
@UseInterceptors(OperatorPageInterceptor)
@UseGuards(OperatorSessionGuard)
export class OperatorTeamController {
  constructor(
    private readonly roster: OperatorRoster,
    private readonly passkeys: OperatorPasskeys,
  ) {}

  @Get('operators')
  @Render('operators')
  async operators() {
    return { operators: await this.roster.list() };
  }

  @Get('operators/:id')
  @Render('operator')
  operator(@Param('id', UUID) operatorId: string) {
    return this.operatorPage(operatorId, null);
  }

  @ChangeThenShow('operators/:id/disable')
  disable(@OperatorAsks() asks: OperatorRequest, @Param('id', UUID) operatorId: string, @Body() _form: ReasonForm) {
    return this.change(asks, operatorId, { kind: 'disable' });
  }

  @ChangeThenShow('operators/:id/enable')
  enable(@OperatorAsks() asks: OperatorRequest, @Param('id', UUID) operatorId: string, @Body() _form: ReasonForm) {
    return this.change(asks, operatorId, { kind: 'enable' });
  }

  @ChangeThenShow('operators/:id/role')
  changeRole(@OperatorAsks() asks: OperatorRequest, @Param('id', UUID) operatorId: string, @Body() form: OperatorRoleForm) {
    return this.change(asks, operatorId, { kind: 'role', role: form.role });
  }

  @ChangeThenShow('operators/:id/remove')
  remove(@OperatorAsks() asks: OperatorRequest, @Param('id', UUID) operatorId: string, @Body() _form: ReasonForm) {
    return this.change(asks, operatorId, { kind: 'remove' });
  }

  @Get('account')
  @Render('account')
  account(@OperatorSession() visit: OperatorVisit) {
    return this.accountPage(visit, {});
  }

  /** A new passkey's options, for the page's script (JSON); the challenge waits under the session. */
  @Post('account/passkeys/options')
  @HttpCode(200)
  @RouteConfig(FORM)
  @OwnAccount()
  passkeyOptions(@Req() request: FastifyRequest, @OperatorSession() visit: OperatorVisit, @Body() _form: OperatorForm) {
    return this.passkeys.registrationOptions(request, visit.sessionId, visit.operator);
  }

  /** Adds the passkey the browser made: the page again, saying so, or with the refusal (400). */
  @Post('account/passkeys')
  @HttpCode(200)
  @RouteConfig(FORM)
  @Render('account')
  @OwnAccount()
  async addPasskey(
    @Req() request: FastifyRequest,
    @OperatorSession() visit: OperatorVisit,
    @OperatorAsks() asks: OperatorRequest,
    @Body() form: PasskeyForm,
  ) {
    const refused = await this.passkeys.register(request, visit.sessionId, asks.actor, form.name, form.credential);
    if (refused) throw new ConsolePage('account', await this.accountPage(visit, { error: refused.error }), 400);
    return this.accountPage(visit, { added: true });
  }

  @ChangeThenShow('account/passkeys/:id/remove')
  @OwnAccount()
  async removePasskey(@OperatorAsks() asks: OperatorRequest, @Param('id', UUID) passkeyId: string, @Body() _form: OperatorForm) {
    if (!(await this.passkeys.remove(asks.actor, passkeyId))) throw notFound();
    return { url: ACCOUNT_PAGE };
  }

  private async change(asks: OperatorRequest, operatorId: string, change: OperatorChange) {
    const outcome = await this.roster.change(asks, operatorId, change);
    if (outcome === null) throw notFound();
    if ('refused' in outcome) throw new ConsolePage('operator', await this.operatorPage(operatorId, OPERATOR_CHANGE_MESSAGES[outcome.refused]), 400);
    return { url: change.kind === 'remove' ? OPERATORS_PAGE : `${OPERATORS_PAGE}/${operatorId}` };
  }

  /** An operator's page, with a refusal when there is one; the not-found page when there is no such operator. */
  private async operatorPage(operatorId: string, error: string | null) {
    const target = await this.roster.find(operatorId);
    if (!target) throw notFound();
    return { target, error };
  }

  private async accountPage(visit: OperatorVisit, shown: { added?: boolean; error?: string }) {
    return { passkeys: await this.passkeys.list(visit.operator.id), added: shown.added ?? false, error: shown.error ?? null };
  }
}
