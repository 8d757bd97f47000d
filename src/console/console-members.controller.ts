import { applyDecorators, Body, Controller, Get, HttpCode, Param, Post, Render, Req, Res, UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ActivityOrigin } from '../activity/activity-log';
import { Requires } from '../auth/requires';
import { ResourceIdPipe } from '../validation/resource-id.pipe';
import { ConsoleAnswerFilter } from './console-answer.filter';
import { CodeForm, ConsoleForm, InviteForm, PasskeyForm, PasswordChangeForm, RoleForm, SsoSettingsForm } from './console-forms';
import { ConsoleMembersService } from './console-members.service';
import { FORM, FormThenShow } from './console-routes';
import { ConsolePageInterceptor } from './console-page.interceptor';
import { ConsoleOrigin, ConsoleSession, ConsoleSessionGuard } from './console-session.guard';
import { ConsoleVisit, SIGN_IN_PATH } from './console-sessions';
import { ConsoleSingleSignOn } from './console-single-sign-on';

const MEMBERS_PAGE = '/console/members';
const ACCOUNT_PAGE = '/console/account';
const MEMBER_ID = new ResourceIdPipe('ROUTE_NOT_FOUND');
/** Passkeys are named by uuids, as members are. */
const PASSKEY_ID = MEMBER_ID;

/** A form whose answer is its page, with what it shows once (a link, a QR code, recovery codes). */
const FormShows = (path: string, page: string) => applyDecorators(Post(path), HttpCode(200), RouteConfig(FORM), Render(page));

/**
 * Members (owners and admins: invite, change role, disable, remove), Single sign-on (owners and admins: the
 * organisation's OpenID provider) and Your account (a member's own password,
 * second factor and sessions). ConsoleSessionGuard opens every request as for the other pages; who may do what is
 * ConsoleMembersService's (member-role.ts), which answers anyone else with the forbidden page.
 */
@ApiExcludeController()
@Controller('console')
@UseFilters(ConsoleAnswerFilter)
@UseInterceptors(ConsolePageInterceptor)
@UseGuards(ConsoleSessionGuard)
@Requires('read')
export class ConsoleMembersController {
  constructor(
    private readonly pages: ConsoleMembersService,
    private readonly sso: ConsoleSingleSignOn,
  ) {}

  @Get('members')
  @Render('members')
  membersPage(@ConsoleSession() visit: ConsoleVisit) {
    return this.pages.membersPage(visit, {});
  }

  @FormShows('members', 'members')
  invite(@ConsoleSession() visit: ConsoleVisit, @ConsoleOrigin() origin: ActivityOrigin, @Body() form: InviteForm) {
    return this.pages.invite(visit, origin, form.email, form.role);
  }

  @FormThenShow('members/:id/role', MEMBERS_PAGE)
  changeRole(@ConsoleSession() visit: ConsoleVisit, @ConsoleOrigin() origin: ActivityOrigin, @Param('id', MEMBER_ID) id: string, @Body() form: RoleForm) {
    return this.pages.change(visit, origin, id, 'role', form.role);
  }

  @FormThenShow('members/:id/disable', MEMBERS_PAGE)
  disable(@ConsoleSession() visit: ConsoleVisit, @ConsoleOrigin() origin: ActivityOrigin, @Param('id', MEMBER_ID) id: string, @Body() _form: ConsoleForm) {
    return this.pages.change(visit, origin, id, 'disable', null);
  }

  @FormThenShow('members/:id/remove', MEMBERS_PAGE)
  remove(@ConsoleSession() visit: ConsoleVisit, @ConsoleOrigin() origin: ActivityOrigin, @Param('id', MEMBER_ID) id: string, @Body() _form: ConsoleForm) {
    return this.pages.change(visit, origin, id, 'remove', null);
  }

  @Get('single-sign-on')
  @Render('single-sign-on')
  ssoPage(@Req() request: FastifyRequest, @ConsoleSession() visit: ConsoleVisit) {
    return this.pages.ssoPage(visit, this.sso.redirectUri(request), {});
  }

  @FormShows('single-sign-on', 'single-sign-on')
  saveSso(@Req() request: FastifyRequest, @ConsoleSession() visit: ConsoleVisit, @ConsoleOrigin() origin: ActivityOrigin, @Body() form: SsoSettingsForm) {
    const { issuer, clientId, clientSecret, domains, newMemberRole, required } = form;
    return this.pages.saveSso(visit, origin, this.sso.redirectUri(request), {
      issuer,
      clientId,
      clientSecret,
      domains,
      newMemberRole,
      required: required === 'on',
    });
  }

  @Get('account')
  @Render('account')
  accountPage(@ConsoleSession() visit: ConsoleVisit) {
    return this.pages.accountPage(visit, {});
  }

  @FormShows('account/password', 'account')
  changePassword(@ConsoleSession() visit: ConsoleVisit, @Body() form: PasswordChangeForm) {
    return this.pages.changePassword(visit, form.currentPassword, form.newPassword);
  }

  @FormShows('account/factor', 'account')
  startFactorReset(@ConsoleSession() visit: ConsoleVisit, @Body() _form: ConsoleForm) {
    return this.pages.startFactorReset(visit);
  }

  @FormShows('account/factor/confirm', 'account')
  confirmFactorReset(@ConsoleSession() visit: ConsoleVisit, @ConsoleOrigin() origin: ActivityOrigin, @Body() form: CodeForm) {
    return this.pages.confirmFactorReset(visit, origin, form.code);
  }

  /** A new passkey's options, for the page's script (JSON); the challenge waits under the session. */
  @Post('account/passkeys/options')
  @HttpCode(200)
  @RouteConfig(FORM)
  passkeyOptions(@Req() request: FastifyRequest, @ConsoleSession() visit: ConsoleVisit, @Body() _form: ConsoleForm) {
    return this.pages.passkeyOptions(request, visit);
  }

  @FormShows('account/passkeys', 'account')
  addPasskey(@Req() request: FastifyRequest, @ConsoleSession() visit: ConsoleVisit, @ConsoleOrigin() origin: ActivityOrigin, @Body() form: PasskeyForm) {
    return this.pages.addPasskey(request, visit, origin, form.name, form.credential);
  }

  @FormThenShow('account/passkeys/:id/remove', ACCOUNT_PAGE)
  removePasskey(
    @ConsoleSession() visit: ConsoleVisit,
    @ConsoleOrigin() origin: ActivityOrigin,
    @Param('id', PASSKEY_ID) id: string,
    @Body() _form: ConsoleForm,
  ) {
    return this.pages.removePasskey(visit, origin, id);
  }

  @FormThenShow('account/sessions/:handle/end', ACCOUNT_PAGE)
  async endSession(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @ConsoleSession() visit: ConsoleVisit,
    @ConsoleOrigin() origin: ActivityOrigin,
    @Param('handle') handle: string,
    @Body() _form: ConsoleForm,
  ): Promise<{ url: string } | void> {
    if (await this.pages.endSession(request, reply, visit, origin, handle)) return { url: SIGN_IN_PATH };
  }

  @FormThenShow('account/sessions/end-others', ACCOUNT_PAGE)
  endOtherSessions(@ConsoleSession() visit: ConsoleVisit, @ConsoleOrigin() origin: ActivityOrigin, @Body() _form: ConsoleForm) {
    return this.pages.endOtherSessions(visit, origin);
  }
}
