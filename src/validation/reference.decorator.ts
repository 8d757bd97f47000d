import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

export const MAX_REFERENCE_LENGTH = 100;

/** The caller's own optional id for a licence number (null or absent: none), refused with `message`. */
export function IsReference(message: string, description: string): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    IsString({ message }),
    MaxLength(MAX_REFERENCE_LENGTH, { message }),
    ApiPropertyOptional({ type: String, nullable: true, maxLength: MAX_REFERENCE_LENGTH, example: 'guard-0042', description }),
  );
}
