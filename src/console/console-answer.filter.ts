import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ConsolePage, ConsoleRedirect, PAGE_HEADERS, pageModel } from './console-answers';
import { RequestWithVisit } from './console-session.guard';

/**
 * Answers the console's own answers-in-place: a redirect (303, so a form is never sent again) or a page with its
 * status. Everything else falls through to the service's one error filter, as {code, message}.
 */
@Catch(ConsolePage, ConsoleRedirect)
export class ConsoleAnswerFilter implements ExceptionFilter {
  catch(answer: ConsolePage | ConsoleRedirect, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (answer instanceof ConsoleRedirect) {
      void reply.redirect(answer.url, 303);
      return;
    }
    const visit = host.switchToHttp().getRequest<RequestWithVisit>().consoleVisit ?? null;
    void reply
      .status(answer.status)
      .headers({ ...PAGE_HEADERS, ...answer.headers })
      .view(answer.template, pageModel(answer.template, visit, answer.data));
  }
}
