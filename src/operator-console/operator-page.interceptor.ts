import { ArgumentsHost, CallHandler, Catch, ExceptionFilter, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { RENDER_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { map, Observable } from 'rxjs';
import { ConsolePage, ConsoleRedirect, PAGE_HEADERS } from '../console/console-answers';
import type { RequestWithOperator } from './operator-session.guard';

/** What an operator page's template sees besides its data: its name, the session's token, and who is signed in. */
function operatorPageModel(template: string, request: RequestWithOperator, data: object): object {
  const visit = request.operatorVisit ?? null;
  return {
    ...data,
    page: template,
    csrfToken: visit?.csrfToken ?? null,
    operator: visit?.operator ?? null,
    mayChange: visit?.operator.role === 'operator',
  };
}

/** The partner console's page headers and model for an operator page (`@Render()`); anything else passes as it is. */
@Injectable()
export class OperatorPageInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const template = this.reflector.get<string | undefined>(RENDER_METADATA, context.getHandler());
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const request = context.switchToHttp().getRequest<RequestWithOperator>();
    return next.handle().pipe(
      map((result: unknown) => {
        if (template === undefined) return result;
        void reply.headers(PAGE_HEADERS);
        return operatorPageModel(template, request, result as object);
      }),
    );
  }
}

/** The console's answers in place (ConsolePage, ConsoleRedirect), for the operator pages: their templates and model. */
@Catch(ConsolePage, ConsoleRedirect)
export class OperatorAnswerFilter implements ExceptionFilter {
  catch(answer: ConsolePage | ConsoleRedirect, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (answer instanceof ConsoleRedirect) {
      void reply.redirect(answer.url, 303);
      return;
    }
    const request = host.switchToHttp().getRequest<RequestWithOperator>();
    void reply
      .status(answer.status)
      .headers({ ...PAGE_HEADERS, ...answer.headers })
      .view(answer.template, operatorPageModel(answer.template, request, answer.data));
  }
}
