import { CallHandler, ExecutionContext, Injectable, NestInterceptor, StreamableFile } from '@nestjs/common';
import { RENDER_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { catchError, map, Observable, of } from 'rxjs';
import { NO_STORE, PAGE_HEADERS, pageModel } from './console-answers';
import { REFUSAL_ON_PAGE, RefusalOnPage, refusedPage } from './console-refusal';
import { RequestWithVisit } from './console-session.guard';

/**
 * Gives a `@Render()` route's data what every page needs (its name, the session's CSRF token) and the pages'
 * headers; a download gets no-store. Redirects and JSON answers pass as they are. On a `@ShowsRefusal` route, a
 * refusal becomes the route's page with its words: the pipes run inside `next.handle()`, so the global pipe's
 * refusal of the form reaches here as the handler's errors do.
 */
@Injectable()
export class ConsolePageInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const template = this.reflector.get<string | undefined>(RENDER_METADATA, context.getHandler());
    const refusal = this.reflector.get<RefusalOnPage | undefined>(REFUSAL_ON_PAGE, context.getHandler());
    const http = context.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest & RequestWithVisit>();
    const visit = request.consoleVisit ?? null;
    const answer =
      refusal === undefined ? next.handle() : next.handle().pipe(catchError((error: unknown) => shownOrThrown(refusal, request[refusal.form], error)));
    return answer.pipe(
      map((result: unknown) => {
        if (template !== undefined) {
          void reply.headers(PAGE_HEADERS);
          return pageModel(template, visit, result as object);
        }
        if (result instanceof StreamableFile) void reply.headers(NO_STORE);
        return result;
      }),
    );
  }
}

/** The page's data for a refusal it shows; any other error goes on to the filters. */
function shownOrThrown(refusal: RefusalOnPage, sent: unknown, error: unknown): Observable<object> {
  const page = refusedPage(refusal, sent, error);
  if (page === null) throw error;
  return of(page);
}
