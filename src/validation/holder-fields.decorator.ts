import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, ValidateBy, ValidateIf } from 'class-validator';

/** A name as the register's name search takes it: 1 to 50 letters (any script), spaces, hyphens or apostrophes. */
export const HOLDER_NAME_PATTERN = /^[\p{L}\p{M} '\u2019-]{1,50}$/u;
/** Sector names carry brackets ("Public Space Surveillance (CCTV)"); otherwise the same rule. */
export const LICENCE_SECTOR_PATTERN = /^[\p{L}\p{M} '\u2019()-]{1,50}$/u;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Whether text is a real YYYY-MM-DD day (2000-02-30 is not: Date.UTC would roll it into March). */
export function isRealIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || !ISO_DATE.test(value)) return false;
  const [year, month, day] = value.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10) === value;
}

/**
 * A name field of a holder check or a name search, refused with `message`. An optional one may be absent; one
 * `requiredWhen` is checked (so required) only when that holds of the object, and may be absent otherwise.
 */
export function IsHolderName(
  message: string,
  documentation: { example: string; description: string; optional?: boolean; requiredWhen?: (object: object) => boolean; pattern?: RegExp },
): PropertyDecorator {
  const pattern = documentation.pattern ?? HOLDER_NAME_PATTERN;
  const { optional, requiredWhen } = documentation;
  const document = optional || requiredWhen ? ApiPropertyOptional : ApiProperty;
  return applyDecorators(
    ...(optional ? [IsOptional()] : []),
    ...(requiredWhen ? [ValidateIf(requiredWhen)] : []),
    // class-validator runs a property's decorators bottom-up: the type is checked before the pattern.
    Matches(pattern, { message }),
    IsString({ message }),
    document({
      type: String,
      minLength: 1,
      maxLength: 50,
      pattern: pattern.source,
      example: documentation.example,
      description: documentation.description,
    }),
  );
}

/**
 * An optional date of birth, YYYY-MM-DD and a real day; never logged, never stored in clear. With `needs`, it is
 * refused too when that does not hold of the object (a date without the names it belongs to).
 */
export function IsDateOfBirth(message: string, description: string, needs: (object: object) => boolean = () => true): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    ValidateBy({ name: 'isRealIsoDate', validator: { validate: (value, args) => isRealIsoDate(value) && needs(args!.object) } }, { message }),
    ApiPropertyOptional({ type: String, format: 'date', maxLength: 10, example: '1990-04-12', description }),
  );
}
