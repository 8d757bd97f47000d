import { Body, Controller, Get, HttpCode, Param, Post, Render, Req, Res, UseFilters, UseInterceptors } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestOrigin } from '../auth/activity-origin';
import { PasswordResets } from '../members/password-resets';
import { SignInLimiter } from '../people/sign-in-limiter';
import { ConsoleAnswerFilter } from './console-answer.filter';
import { ConsolePage, ConsoleRedirect } from './console-answers';
import { PasswordResetForm, PasswordResetRequestForm } from './console-forms';
import { ConsolePageInterceptor } from './console-page.interceptor';
import { FORM } from './console-routes';
import { ConsoleSessions, SIGN_IN_PATH } from './console-sessions';

const DEAD_LINK = 'This reset link has expired or was used already. Ask for a new one on the sign-in page.';
const TOO_MANY = 'Too many reset requests from here or for this address. Try again in a minute.';
/** The limiter's scope of reset requests: every request counts, none is forgiven. */
const RESET_SCOPE = 'password-reset';

/**
 * Forgot your password? (where SMTP_URL is set): an address in, the same page out whatever it names, and a link by
 * e-mail to each of its active members; the link's page sets a new password, once, and ends the member's sessions.
 * Requests are counted as sign-ins are, per client address and per e-mail address.
 */
@ApiExcludeController()
@Controller('console')
@UseFilters(ConsoleAnswerFilter)
@UseInterceptors(ConsolePageInterceptor)
export class ConsolePasswordResetController {
  constructor(
    private readonly sessions: ConsoleSessions,
    private readonly resets: PasswordResets,
    private readonly limiter: SignInLimiter,
  ) {}

  @Get('forgot-password')
  @Render('forgot-password')
  requestPage(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    if (!this.resets.offered) throw new ConsoleRedirect(SIGN_IN_PATH);
    return { signInToken: this.sessions.signInToken(request, reply), sent: false, error: null, minutes: this.resets.minutes };
  }

  /** Always the same page, whether the address has an account or not. */
  @Post('forgot-password')
  @HttpCode(200)
  @RouteConfig(FORM)
  @Render('forgot-password')
  async request(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Body() form: PasswordResetRequestForm) {
    this.sessions.checkSignInForm(request, form._csrf);
    if (!this.resets.offered) throw new ConsoleRedirect(SIGN_IN_PATH);
    const signInToken = this.sessions.signInToken(request, reply);
    if ((await this.limiter.count({ scope: RESET_SCOPE, address: request.ip, email: form.email })) > 0)
      throw new ConsolePage('forgot-password', { signInToken, sent: false, error: TOO_MANY, minutes: this.resets.minutes }, 429);
    await this.resets.request(form.email);
    return { signInToken, sent: true, error: null, minutes: this.resets.minutes };
  }

  @Get('reset-password/:token')
  @Render('reset-password')
  resetPage(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Param('token') token: string) {
    return this.formPage(request, reply, token, null);
  }

  /** The new password: set once, every session of the member ended; the next sign-in still asks for the second factor. */
  @Post('reset-password/:token')
  @HttpCode(200)
  @RouteConfig(FORM)
  @Render('reset-password')
  async reset(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('token') token: string,
    @Body() form: PasswordResetForm,
  ) {
    this.sessions.checkSignInForm(request, form._csrf);
    const done = await this.resets.reset(token, form.password, requestOrigin({ type: 'member', id: null }, request));
    if ('error' in done) throw new ConsolePage('reset-password', await this.formPage(request, reply, token, done.error), 400);
    const { member } = done;
    await this.sessions.endMemberSessions(requestOrigin({ type: 'member', id: member.id }, request), member, { except: null });
    return { stage: 'done', error: null };
  }

  /** The link's form with the member's address and a refusal's words, or the dead link's page (404). */
  private async formPage(request: FastifyRequest, reply: FastifyReply, token: string, error: string | null) {
    const member = await this.resets.holderOf(token);
    if (!member) throw new ConsolePage('reset-password', { stage: 'dead', error: DEAD_LINK }, 404);
    return { stage: 'form', email: member.email, token, signInToken: this.sessions.signInToken(request, reply), error };
  }
}
