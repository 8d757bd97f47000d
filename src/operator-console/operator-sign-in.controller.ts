import { Body, Controller, Get, Param, Post, Redirect, Render, Req, Res, UseFilters, UseInterceptors } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConsolePage } from '../console/console-answers';
import { FORM_BODY } from '../http/decode-request-body';
import { SignInLimiter } from '../people/sign-in-limiter';
import { totpQrDataUrl } from '../people/totp-qr-code';
import { OperatorAccounts } from './operator-accounts';
import { CodeForm, PasswordForm, SignInForm } from './operator-forms';
import { OperatorAnswerFilter, OperatorPageInterceptor } from './operator-page.interceptor';
import { OperatorSessions } from './operator-sessions';

const HOME = '/operator/partners';
const FORM = { requestBody: FORM_BODY };

/**
 * The operator console before a session: sign-in (e-mail address, password and a TOTP or recovery code, limited by
 * the people kernel's SignInLimiter), and an invitation's two steps (a password, then the second factor).
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
  ) {}

  @Get()
  @Redirect(HOME, 303)
  root(): void {}

  @Get('sign-in')
  @Render('sign-in')
  signInPage(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return { formToken: this.sessions.formToken(request, reply), error: null };
  }

  @Post('sign-in')
  @RouteConfig(FORM)
  @Redirect(HOME, 303)
  async signIn(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Body() form: SignInForm): Promise<void> {
    this.sessions.checkChange(request, form._csrf);
    const attempt = { scope: 'operators', address: request.ip, email: form.email };
    const wait = await this.limiter.count(attempt);
    if (wait > 0) throw this.again(request, reply, 'Too many sign-in attempts. Wait a minute and try again.', 429, { 'retry-after': String(wait) });
    const operator = await this.accounts.signIn(form.email, form.password, form.code);
    if (!operator) throw this.again(request, reply, 'The e-mail address, password or code is not right.', 401);
    await this.limiter.forgive(attempt);
    await this.sessions.start(reply, operator);
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
    return new ConsolePage('sign-in', { formToken: this.sessions.formToken(request, reply), error }, status, headers);
  }
}
