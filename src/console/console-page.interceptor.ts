import { CallHandler, ExecutionContext, Injectable, NestInterceptor, StreamableFile } from '@nestjs/common';
import { RENDER_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { map, Observable } from 'rxjs';
import { NO_STORE, PAGE_HEADERS, pageModel } from './console-answers';
import { RequestWithVisit } from './console-session.guard';

/**
 * Gives a `@Render()` route's data what every page needs (its name, the session's CSRF token) and the pages'
 * headers; a download gets no-store. Redirects and JSON answers pass as they are.
 */
@Injectable()
export class ConsolePageInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const template = this.reflector.get<string | undefined>(RENDER_METADATA, context.getHandler());
    const http = context.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const visit = http.getRequest<RequestWithVisit>().consoleVisit ?? null;
    return next.handle().pipe(
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
