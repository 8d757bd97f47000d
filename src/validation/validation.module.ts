import { Module } from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import { RequestValidationPipe } from './request-validation.pipe';

/**
 * Registers the one validation pipe globally, so test apps get it too, and exports it for a page that shows a
 * form's problems beside its fields rather than as a 400 (the console).
 */
@Module({
  providers: [RequestValidationPipe, { provide: APP_PIPE, useExisting: RequestValidationPipe }],
  exports: [RequestValidationPipe],
})
export class ValidationModule {}
