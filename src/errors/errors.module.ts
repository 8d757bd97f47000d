import { Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { RequestValidationPipe } from '../http/request-validation.pipe';
import { ApiErrorFilter } from './api-error.filter';

/** Registers the one filter and the one validation pipe globally, so test apps get them too. */
@Module({
  providers: [
    { provide: APP_FILTER, useClass: ApiErrorFilter },
    { provide: APP_PIPE, useClass: RequestValidationPipe },
  ],
})
export class ErrorsModule {}
