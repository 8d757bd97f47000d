import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Length } from 'class-validator';
import { FEATURE_VALIDATION_MESSAGES } from '../../errors/error-codes';
import { UnknownFieldMessage } from '../../validation/request-dto.decorators';

const { keyBody } = FEATURE_VALIDATION_MESSAGES;

/** POST /v1/keys: {"name"}, the label that tells the new key apart in the list. */
@UnknownFieldMessage(keyBody)
export class CreateKeyDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Rostering system', description: 'A label for the key, trimmed' })
  @Length(1, 100, { message: keyBody })
  @IsString({ message: keyBody })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  name!: string;
}

export class KeyDto {
  @ApiProperty({ format: 'uuid', description: 'The key id, for DELETE /v1/keys/{id}' })
  id!: string;

  @ApiProperty({ example: 'Rostering system' })
  name!: string;

  @ApiProperty({ example: 'lvs_Ab3dE9', description: 'The first characters of the key, to tell keys apart' })
  prefix!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ type: String, nullable: true, format: 'date-time', example: null, description: 'To the minute; null when never used' })
  lastUsedAt!: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'date-time', example: null, description: 'null: the key never expires' })
  expiresAt!: string | null;

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
