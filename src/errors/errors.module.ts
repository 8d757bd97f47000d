import { Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { UndecodableBodyPipe } from '../http/undecodable-body.pipe';
import { ApiErrorFilter } from './api-error.filter';

/** Registers the one filter and the one pipe (the 400 for an undecodable body) globally, so test apps get them too. */
@Module({
  providers: [
    { provide: APP_FILTER, useClass: ApiErrorFilter },
    { provide: APP_PIPE, useClass: UndecodableBodyPipe },
  ],
})
export class ErrorsModule {}
