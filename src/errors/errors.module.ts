import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ApiErrorFilter } from './api-error.filter';

/** Registers the one exception filter globally, so test apps get it too. */
@Module({
  providers: [{ provide: APP_FILTER, useClass: ApiErrorFilter }],
})
export class ErrorsModule {}
