import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDate, IsIn, IsOptional, IsString, Length } from 'class-validator';
import { FEATURE_VALIDATION_MESSAGES } from '../../errors/error-codes';
import { UnknownFieldMessage } from '../../validation/request-dto.decorators';
import { parseExpiry } from '../key-expiry';
import { KEY_MODES, KeyMode } from '../key-mode';
import { KEY_ROLES, KeyRole } from '../key-role';
import { ISO_INSTANT_MAX_LENGTH } from '../../validation/iso-instant';

const { keyBody, keyExpiry, keyMode, keyRole } = FEATURE_VALIDATION_MESSAGES;

/** POST /v1/keys: {"name"}, the label that tells the new key apart in the list, and an optional expiry. */
@UnknownFieldMessage(keyBody)
export class CreateKeyDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Rostering system', description: 'A label for the key, trimmed' })
  @Length(1, 100, { message: keyBody })
  @IsString({ message: keyBody })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  name!: string;

  @ApiProperty({
    required: false,
    type: String,
    format: 'date-time',
    maxLength: ISO_INSTANT_MAX_LENGTH,
    example: '2027-01-31T00:00:00Z',
    description:
      'When the new key stops working: a future ISO-8601 date (midnight UTC), or date and time with its zone. ' +
      "Never later than the key making this request: a later expiry, or none, becomes that key's expiry.",
  })
  @IsOptional()
  @IsDate({ message: keyExpiry })
  // Anything that does not parse stays as it came, so that IsDate refuses it.
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? (parseExpiry(value) ?? value) : value))
  expiresAt?: Date;

  @ApiProperty({
    required: false,
    enum: KEY_MODES,
    example: 'test',
    description:
      "The new key's mode; the calling key's when left out. A live key may create either; a test key only test keys " +
      '(asking for live answers 400 VALIDATION_ERROR).',
  })
  @IsOptional()
  @IsIn(KEY_MODES, { message: keyMode })
  mode?: KeyMode;

  @ApiProperty({
    required: false,
    enum: KEY_ROLES,
    example: 'viewer',
    description:
      "What the new key may do (docs/api.md, Key roles); the calling key's role when left out. Never more than the calling " +
      "key's own: asking for more answers 403 FORBIDDEN.",
  })
  @IsOptional()
  @IsIn(KEY_ROLES, { message: keyRole })
  role?: KeyRole;
}

export class KeyDto {
  @ApiProperty({ format: 'uuid', description: 'The key id, for DELETE /v1/keys/{id}' })
  id!: string;

  @ApiProperty({ example: 'Rostering system' })
  name!: string;

  @ApiProperty({ example: 'lvs_Ab3dE9', description: 'The first characters of the key, to tell keys apart' })
  prefix!: string;

  @ApiProperty({
    enum: KEY_MODES,
    example: 'live',
    description: 'live: reaches the register and spends the plan; test: reaches only the sandbox (docs/api.md, Test mode)',
  })
  mode!: KeyMode;

  @ApiProperty({
    enum: KEY_ROLES,
    example: 'admin',
    description: 'What the key may do: admin everything, developer all but the activity log, compliance checks and reads, viewer reads',
  })
  role!: KeyRole;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ type: String, nullable: true, format: 'date-time', example: null, description: 'To the minute; null when never used' })
  lastUsedAt!: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'date-time', example: null, description: 'null: the key never expires' })
  expiresAt!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uuid',
    example: null,
    description: 'The key that issued this one through POST /v1/keys or the console; null for a key the operator issued',
  })
  createdBy!: string | null;

  @ApiProperty({
    description:
      'true when the key of this request may revoke this key: it is that key, or was issued by it or by a key it issued, or (to a key the operator issued) its issuer is revoked',
  })
  revocable!: boolean;

  @ApiProperty({ description: 'true for the key this request was made with' })
  current!: boolean;
}

export class KeyListDto {
  @ApiProperty({ type: [KeyDto], description: "The user's keys that are not revoked, oldest first" })
  keys!: KeyDto[];
}

export class CreatedKeyDto extends KeyDto {
  @ApiProperty({ example: 'lvs_Ab3dE9xQ…', description: 'The new key, shown only in this answer' })
  key!: string;
}
