import { createParamDecorator, ExecutionContext, PipeTransform } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error';
import { VALIDATION_MESSAGES } from '../errors/error-codes';
import { IDEMPOTENCY_KEY_CHARACTER, IDEMPOTENCY_KEY_MAX_LENGTH, isValidIdempotencyKey } from './idempotency-key';

/** A client's Idempotency-Key as it came, or 400 with the contract's message; absent stays undefined. */
export class IdempotencyKeyPipe implements PipeTransform<unknown, string | undefined> {
  transform(value: unknown): string | undefined {
    if (value === undefined) return undefined;
    if (!isValidIdempotencyKey(value)) throw ApiError.validation(VALIDATION_MESSAGES.idempotencyKey);
    return value;
  }
}

const IdempotencyKeyHeader = createParamDecorator(
  (_data: unknown, context: ExecutionContext): unknown => context.switchToHttp().getRequest<FastifyRequest>().headers['idempotency-key'],
);

const DERIVED_WHEN_ABSENT = 'Without it, the key is derived from your user and what you ask.';

/**
 * The request's Idempotency-Key header, checked, and its one description in the OpenAPI document. `meaning` says
 * what the key does on this route. A parameter decorator cannot go through applyDecorators (it is handed the
 * parameter's index, not the method's descriptor), so the header is documented on the method here.
 */
export function IdempotencyKey(meaning: string = DERIVED_WHEN_ABSENT): ParameterDecorator {
  const documented = ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: `1-${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters. ${meaning}`,
    schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: `^${IDEMPOTENCY_KEY_CHARACTER}+$` },
  });
  return (target, method, index) => {
    IdempotencyKeyHeader(new IdempotencyKeyPipe())(target, method, index);
    documented(target, method!, Object.getOwnPropertyDescriptor(target, method!)!);
  };
}
