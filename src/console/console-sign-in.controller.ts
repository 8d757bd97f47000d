import { Body, Controller, Get, Post, Redirect, Render, Req, Res, UseFilters, UseInterceptors } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error';
import { FORM_BODY } from '../http/decode-request-body';
import { ConsoleAnswerFilter } from './console-answer.filter';
import { ConsolePage } from './console-answers';
import { SignInForm } from './console-forms';
import { ConsolePageInterceptor } from './console-page.interceptor';
import { ConsoleSessions } from './console-sessions';

const OVERVIEW = '/console/overview';

/**
 * The console's pages before a session: the entrance and the sign-in form. The reply is taken (passed through)
 * only to set the sign-in form's cookie and the session's.
 */
@ApiExcludeController()
@Controller('console')
@UseFilters(ConsoleAnswerFilter)
@UseInterceptors(ConsolePageInterceptor)
export class ConsoleSignInController {
  constructor(private readonly sessions: ConsoleSessions) {}

  @Get()
  @Redirect(OVERVIEW, 303)
  root(): void {}

  @Get('sign-in')
  @Render('sign-in')
  signInPage(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return { signInToken: this.sessions.signInToken(request, reply), error: null };
  }

  @Post('sign-in')
  @RouteConfig({ requestBody: FORM_BODY })
  @Redirect(OVERVIEW, 303)
  async signIn(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Body() form: SignInForm): Promise<void> {
    let signedIn: boolean;
    try {
      signedIn = await this.sessions.signIn(request, reply, form._csrf, form.apiKey.trim());
    } catch (error) {
      if (error instanceof ApiError && error.code === 'TOO_MANY_SIGN_INS') throw this.again(request, reply, error);
      throw error;
    }
    if (!signedIn) throw this.again(request, reply, new ApiError('UNAUTHORIZED'));
  }

  /** The sign-in form again, with the refusal's words and status. */
  private again(request: FastifyRequest, reply: FastifyReply, error: ApiError): ConsolePage {
    return new ConsolePage('sign-in', { signInToken: this.sessions.signInToken(request, reply), error: error.publicMessage }, error.status);
  }
}
