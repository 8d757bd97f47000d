import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export interface IntegerRule {
  min: number;
  max: number;
  /** the fixed text for anything else */
  message: string;
  description: string;
  /** the value when the parameter is absent, for the document (the DTO's property holds it) */
  fallback?: number;
}

/**
 * An optional integer query parameter in [min, max]. Only plain digits become a number; anything else
 * ("1e2", " 5", a repeated parameter) stays as sent, and so fails IsInt.
 */
export function QueryInteger({ min, max, message, description, fallback }: IntegerRule): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^[0-9]{1,6}$/.test(value) ? Number(value) : value)),
    IsOptional(),
    IsInt({ message }),
    Min(min, { message }),
    Max(max, { message }),
    ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: min, maximum: max, default: fallback, description }),
  );
}
