import { Body, Controller, Get, HttpCode, Param, Post, Redirect, Render, Req, Res, UseFilters, UseInterceptors } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConsolePage } from '../console/console-answers';
import { FORM_BODY } from '../http/decode-request-body';
import { SignInLimiter } from '../people/sign-in-limiter';
import { totpQrDataUrl } from '../people/totp-qr-code';
import { OperatorAccounts } from './operator-accounts';
import { CodeForm, OperatorForm, PasskeySignInForm, PasswordForm, SignInForm, SsoStartForm } from './operator-forms';
import { OperatorAnswerFilter, OperatorPageInterceptor } from './operator-page.interceptor';
import { OperatorPasskeys } from './operator-passkeys';
import { OPERATOR_SIGN_IN_SCOPE, OperatorSessions } from './operator-sessions';
import { OperatorSingleSignOn } from './operator-single-sign-on';

const HOME = '/operator/partners';
const FORM = { requestBody: FORM_BODY };
const TOO_MANY = 'Too many sign-in attempts. Wait a minute and try again.';
const WRONG_PASSKEY = 'That passkey did not sign you in. Use a passkey you added on Your account, or your password and code.';

/**
 * The operator console before a session: sign-in (e-mail address, password and a TOTP or recovery code, or a passkey
 * alone, limited by the people kernel's SignInLimiter; or single sign-on), and an invitation's two steps (a password,
 * then the second factor).
 */
@ApiExcludeController()
@Controller('operator')
@UseFilters(OperatorAnswerFilter)
@UseInterceptors(OperatorPageInterceptor)
export class OperatorSignInController {
  constructor(
    private readonly sessions: OperatorSessions,
    private readonly accounts: OperatorAccounts,
    private readonly limiter: SignInLimiter,
    private readonly sso: OperatorSingleSignOn,
    private readonly passkeys: OperatorPasskeys,
  ) {}

  @Get()
  @Redirect(HOME, 303)
  root(): void {}

  @Get('sign-in')
  @Render('sign-in')
  signInPage(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.signInModel(request, reply, null);
  }

  @Post('sign-in')
  @RouteConfig(FORM)
  @Redirect(HOME, 303)
  async signIn(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Body() form: SignInForm): Promise<void> {
    this.sessions.checkChange(request, form._csrf);
    const attempt = { scope: OPERATOR_SIGN_IN_SCOPE, address: request.ip, email: form.email };
    const wait = await this.limiter.count(attempt);
    if (wait > 0) throw this.again(request, reply, TOO_MANY, 429, { 'retry-after': String(wait) });
    const operator = await this.accounts.signIn(form.email, form.password, form.code);
    if (!operator) throw this.again(request, reply, 'The e-mail address, password or code is not right.', 401);
    await this.limiter.forgive(attempt);
    await this.sessions.start(reply, operator);
  }

  /** A passkey sign-in's options, for the page's script (JSON); the challenge waits under the sign-in form's token. */
  @Post('sign-in/passkey/options')
  @HttpCode(200)
  @RouteConfig(FORM)
  passkeyOptions(@Req() request: FastifyRequest, @Body() form: OperatorForm) {
    this.sessions.checkChange(request, form._csrf);
    return this.passkeys.signInOptions(request, form._csrf);
  }

  /** An operator's passkey alone, both factors: signed in, or the sign-in page again. */
  @Post('sign-in/passkey')
  @RouteConfig(FORM)
  @Redirect(HOME, 303)
  async passkey(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Body() form: PasskeySignInForm): Promise<void> {
    this.sessions.checkChange(request, form._csrf);
    const signedIn = await this.passkeys.signIn(request, form._csrf, form.credential);
    if (signedIn !== null && 'wait' in signedIn) throw this.again(request, reply, TOO_MANY, 429, { 'retry-after': String(signedIn.wait) });
    if (signedIn === null) throw this.again(request, reply, WRONG_PASSKEY, 401);
    await this.sessions.start(reply, signedIn);
  }

  /** Single sign-on's first half (OPERATOR_OIDC_*): a page that goes on to the provider, as the partner console's does. */
  @Post('sign-in/sso')
  @HttpCode(200)
  @RouteConfig(FORM)
  @Render('sso-continue')
  async startSso(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Body() form: SsoStartForm) {
    this.sessions.checkChange(request, form._csrf);
    const started = await this.sso.start(request, reply, form.email);
    if ('error' in started) throw this.again(request, reply, started.error, 400);
    return { next: started.url, to: 'your identity provider' };
  }

  /** The provider's callback: signed in, a page of this site that goes on to the console (its Strict cookie then sent). */
  @Get('sign-in/sso/callback')
  @Render('sso-continue')
  async ssoCallback(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const operator = await this.sso.finish(request, reply);
    if ('error' in operator) throw this.again(request, reply, operator.error, 403);
    await this.sessions.start(reply, operator);
    return { next: HOME, to: 'the operator console' };
  }

  @Get('join/:token')
  @Render('join')
  async joinPage(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Param('token') token: string) {
    const invited = await this.accounts.invitation(token);
    return { formToken: this.sessions.formToken(request, reply), invited, token, error: null };
  }

  /** The invitation's first step: a password; the answer is the second step's page, with the QR code and the secret in text. */
  @Post('join/:token')
  @RouteConfig(FORM)
  @Render('join-totp')
  async choosePassword(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('token') token: string,
    @Body() form: PasswordForm,
  ) {
    this.sessions.checkChange(request, form._csrf);
    const chosen = await this.accounts.choosePassword(token, form.password);
    const formToken = this.sessions.formToken(request, reply);
    if ('refused' in chosen)
      throw new ConsolePage('join', { formToken, invited: await this.accounts.invitation(token), token, error: chosen.refused }, 400);
    return { formToken, token, secret: chosen.secret, qrCode: await totpQrDataUrl(chosen.uri), error: null };
  }

  /** The second step: a code from the app; then the recovery codes, shown once, and the operator is signed in. */
  @Post('join/:token/totp')
  @RouteConfig(FORM)
  @Render('recovery-codes')
  async confirmTotp(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('token') token: string,
    @Body() form: CodeForm,
  ) {
    this.sessions.checkChange(request, form._csrf);
    const confirmed = await this.accounts.confirmTotp(token, form.code);
    if (!confirmed) {
      const formToken = this.sessions.formToken(request, reply);
      throw new ConsolePage(
        'join-totp',
        { formToken, token, secret: null, qrCode: null, error: 'That code is not right. Try the next one your app shows.' },
        400,
      );
    }
    await this.sessions.start(reply, confirmed.account);
    return { recoveryCodes: confirmed.recoveryCodes };
  }

  private again(request: FastifyRequest, reply: FastifyReply, error: string, status: number, headers: Record<string, string> = {}): ConsolePage {
    return new ConsolePage('sign-in', this.signInModel(request, reply, error), status, headers);
  }

  private signInModel(request: FastifyRequest, reply: FastifyReply, error: string | null) {
    return { formToken: this.sessions.formToken(request, reply), error, sso: this.sso.enabled };
  }
}
