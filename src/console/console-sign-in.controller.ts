import { Body, Controller, Get, HttpCode, Param, Post, Redirect, Render, Req, Res, UseFilters, UseInterceptors } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestOrigin } from '../auth/activity-origin';
import { ApiError } from '../errors/api-error';
import { SingleSignOnRequired } from '../members/member-sso.service';
import { MembersService } from '../members/members.service';
import { PasswordResets } from '../members/password-resets';
import { ConsoleAnswerFilter } from './console-answer.filter';
import { ConsolePage, ConsoleRedirect } from './console-answers';
import { CodeForm, ConsoleForm, JoinForm, PasskeySignInForm, SignInForm, SsoStartForm } from './console-forms';
import { ConsolePasskeys } from './console-passkeys';
import { ConsolePageInterceptor } from './console-page.interceptor';
import { ConsoleSessions, SIGN_IN_PATH } from './console-sessions';
import { ConsoleSingleSignOn } from './console-single-sign-on';
import { FORM } from './console-routes';

const OVERVIEW = '/console/overview';
const CODE_PATH = '/console/sign-in/code';
/** The one answer to a wrong address or password, so that it never tells whether an address has an account. */
const WRONG_PASSWORD = 'The e-mail address or password is not right.';
const WRONG_CODE = 'That code is not right, or was used already.';
const WRONG_PASSKEY = 'That passkey did not sign you in. Use a passkey you added on Your account, or your password.';
const DEAD_INVITATION = 'This invitation link has expired or was used already. Ask whoever invited you for a new one.';

/**
 * The console's pages before a session: the entrance, sign-in (a member's password and second factor, or an API
 * key where CONSOLE_KEY_SIGN_IN allows), and an invitation's pages (name and password, then the second factor).
 * The reply is taken (passed through) only to set the sign-in form's cookie and the session's.
 */
@ApiExcludeController()
@Controller('console')
@UseFilters(ConsoleAnswerFilter)
@UseInterceptors(ConsolePageInterceptor)
export class ConsoleSignInController {
  constructor(
    private readonly sessions: ConsoleSessions,
    private readonly members: MembersService,
    private readonly sso: ConsoleSingleSignOn,
    private readonly passkeys: ConsolePasskeys,
    private readonly resets: PasswordResets,
  ) {}

  @Get()
  @Redirect(OVERVIEW, 303)
  root(): void {}

  @Get('sign-in')
  @Render('sign-in')
  signInPage(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.signInModel(request, reply, null);
  }

  /** A member's password (then the code page), or an API key (then the console). */
  @Post('sign-in')
  @RouteConfig(FORM)
  @Redirect(OVERVIEW, 303)
  async signIn(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() form: SignInForm,
  ): Promise<{ url: string } | void> {
    try {
      if (form.apiKey !== undefined) {
        if (!(await this.sessions.signIn(request, reply, form._csrf, form.apiKey.trim())))
          throw this.again(request, reply, new ApiError('UNAUTHORIZED').publicMessage, 401);
        return;
      }
      if (!(await this.sessions.passwordStep(request, form._csrf, form.email ?? '', form.password ?? '')))
        throw this.again(request, reply, WRONG_PASSWORD, 401);
      return { url: CODE_PATH };
    } catch (error) {
      if (error instanceof ApiError && error.code === 'TOO_MANY_SIGN_INS') throw this.again(request, reply, error.publicMessage, error.status);
      if (error instanceof SingleSignOnRequired) throw this.again(request, reply, error.message, 403);
      throw error;
    }
  }

  /**
   * Single sign-on's first half: a page that goes on to the organisation's provider. Not a redirect: the pages'
   * Content-Security-Policy (form-action 'self') keeps a form's answer from leading to another site.
   */
  @Post('sign-in/sso')
  @HttpCode(200)
  @RouteConfig(FORM)
  @Render('sso-continue')
  async startSso(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Body() form: SsoStartForm) {
    const started = await this.sso.start(request, reply, form._csrf, form.email);
    if ('error' in started) throw this.again(request, reply, started.error, 400);
    return { next: started.url, to: 'your identity provider' };
  }

  /**
   * The provider's callback: signed in, a page that goes on to the console (a page of this site, so that the
   * browser then sends the session's SameSite=Strict cookie, which it withholds on a redirect from another site).
   */
  @Get('sign-in/sso/callback')
  @Render('sso-continue')
  async ssoCallback(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const refused = await this.sso.finish(request, reply);
    if (refused) throw this.again(request, reply, refused.error, 403);
    return { next: OVERVIEW, to: 'the console' };
  }

  /** A passkey sign-in's options, for the page's script (JSON); the challenge waits under the sign-in form's token. */
  @Post('sign-in/passkey/options')
  @HttpCode(200)
  @RouteConfig(FORM)
  passkeyOptions(@Req() request: FastifyRequest, @Body() form: ConsoleForm) {
    return this.passkeys.signInOptions(request, form._csrf);
  }

  /** A member's passkey alone, both factors: signed in, or the sign-in page again. */
  @Post('sign-in/passkey')
  @RouteConfig(FORM)
  @Redirect(OVERVIEW, 303)
  async passkey(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Body() form: PasskeySignInForm): Promise<void> {
    try {
      if (!(await this.passkeys.signIn(request, reply, form._csrf, form.credential))) throw this.again(request, reply, WRONG_PASSKEY, 401);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'TOO_MANY_SIGN_INS') throw this.again(request, reply, error.publicMessage, error.status);
      if (error instanceof SingleSignOnRequired) throw this.again(request, reply, error.message, 403);
      throw error;
    }
  }

  /** The code's form; for a member whose factor the operator reset, a new factor to set up first (kept until confirmed). */
  @Get('sign-in/code')
  @Render('sign-in-code')
  async codePage(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const model = await this.codeModel(request, reply, null);
    if (!model) throw new ConsoleRedirect(SIGN_IN_PATH);
    return model;
  }

  @Post('sign-in/code')
  @RouteConfig(FORM)
  @Redirect(OVERVIEW, 303)
  async code(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Body() form: CodeForm): Promise<void> {
    let outcome: Awaited<ReturnType<ConsoleSessions['secondFactorStep']>>;
    try {
      outcome = await this.sessions.secondFactorStep(request, reply, form._csrf, form.code);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'TOO_MANY_SIGN_INS') throw await this.codeAgain(request, reply, error.publicMessage, error.status);
      throw error;
    }
    if (outcome === 'expired') throw new ConsoleRedirect(SIGN_IN_PATH);
    if (outcome === 'wrong') throw await this.codeAgain(request, reply, WRONG_CODE, 401);
    // A new factor confirmed: signed in, with the new recovery codes shown once.
    if (outcome !== 'signed-in') throw new ConsolePage('recovery-codes', { recoveryCodes: outcome.recoveryCodes, next: OVERVIEW }, 200);
  }

  @Get('join/:token')
  @Render('join')
  async joinPage(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Param('token') token: string) {
    const stage = await this.members.joinStage(token);
    if (!stage) throw new ConsolePage('join', { stage: null, error: DEAD_INVITATION, signInToken: null }, 404);
    return { ...stage, token, error: null, signInToken: this.sessions.signInToken(request, reply) };
  }

  @Post('join/:token')
  @RouteConfig(FORM)
  @Redirect('', 303)
  async join(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Param('token') token: string, @Body() form: JoinForm) {
    this.sessions.checkSignInForm(request, form._csrf);
    const refused = await this.members.setJoinDetails(token, form.displayName, form.password);
    if (refused) throw await this.joinAgain(request, reply, token, refused.error);
    return { url: `/console/join/${token}` };
  }

  /** The first code: the member is active, signed in, and sees their recovery codes once. */
  @Post('join/:token/factor')
  @HttpCode(200)
  @RouteConfig(FORM)
  @Render('recovery-codes')
  async confirmFactor(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('token') token: string,
    @Body() form: CodeForm,
  ) {
    this.sessions.checkSignInForm(request, form._csrf);
    const joined = await this.members.confirmJoin(token, form.code, requestOrigin({ type: 'member', id: null }, request));
    if ('error' in joined) throw await this.joinAgain(request, reply, token, joined.error);
    await this.sessions.startMemberSession(request, reply, joined.member, requestOrigin({ type: 'member', id: joined.member.id }, request));
    return { recoveryCodes: joined.recoveryCodes, next: OVERVIEW };
  }

  private signInModel(request: FastifyRequest, reply: FastifyReply, error: string | null) {
    return { signInToken: this.sessions.signInToken(request, reply), error, keySignIn: this.sessions.keySignIn, passwordReset: this.resets.offered };
  }

  /** The sign-in form again, with the refusal's words and status. */
  private again(request: FastifyRequest, reply: FastifyReply, error: string, status: number): ConsolePage {
    return new ConsolePage('sign-in', this.signInModel(request, reply, error), status);
  }

  /** The code page's model: the form's token, and the new factor's setup for a member who has none; null when no sign-in waits. */
  private async codeModel(request: FastifyRequest, reply: FastifyReply, error: string | null) {
    const member = await this.sessions.waitingMember(request);
    if (!member) return null;
    const setup = member.totpSecret !== null ? null : ((await this.members.pendingFactor(member)) ?? (await this.members.startFactorReset(member)));
    return { signInToken: this.sessions.signInToken(request, reply), error, setup };
  }

  private async codeAgain(request: FastifyRequest, reply: FastifyReply, error: string, status: number): Promise<ConsolePage | ConsoleRedirect> {
    const model = await this.codeModel(request, reply, error);
    return model ? new ConsolePage('sign-in-code', model, status) : new ConsoleRedirect(SIGN_IN_PATH);
  }

  /** The invitation's page as it now stands, with the refusal's words. */
  private async joinAgain(request: FastifyRequest, reply: FastifyReply, token: string, error: string): Promise<ConsolePage> {
    const stage = await this.members.joinStage(token);
    if (!stage) return new ConsolePage('join', { stage: null, error: DEAD_INVITATION, signInToken: null }, 404);
    return new ConsolePage('join', { ...stage, token, error, signInToken: this.sessions.signInToken(request, reply) }, 400);
  }
}
