import { KeyMode } from '../../auth/key-mode';
import { ApiModeProperty } from '../../auth/mode-property';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsObject, IsOptional, ValidateNested } from 'class-validator';
import { IsDateOfBirth, IsHolderName } from '../../validation/holder-fields.decorator';
import { ApiLicenceNumber, IsLicenceNumber } from '../../validation/licence-number.decorator';
import { IsReference } from '../../validation/reference.decorator';
import { FEATURE_VALIDATION_MESSAGES } from '../../errors/error-codes';
import { OptionalBody, UnknownFieldMessage } from '../../validation/request-dto.decorators';
import { LicenceDto } from '../../common/licence.dto';

const { watchHolder, followSuccessor } = FEATURE_VALIDATION_MESSAGES;

/** Who holds the watched licence: its successor is looked for under these names (and this date of birth). */
@UnknownFieldMessage(watchHolder)
export class WatchHolderDto {
  @IsHolderName(watchHolder, { example: 'Olivia', description: 'First name' })
  firstName!: string;

  @IsHolderName(watchHolder, { example: 'Hughes', description: 'Surname' })
  surname!: string;

  @IsDateOfBirth(watchHolder, 'YYYY-MM-DD; stored only as an HMAC digest and encrypted for re-checks, never in clear')
  dateOfBirth?: string;
}

/** PUT /v1/watchlist/{licenceNumber}: no body, or {"reference","holder","followSuccessor"}, each optional. */
@OptionalBody()
@UnknownFieldMessage(FEATURE_VALIDATION_MESSAGES.watchBody)
export class WatchRequestDto {
  @IsReference(FEATURE_VALIDATION_MESSAGES.watchReference, 'Your own id for the number')
  reference?: string | null;

  @ApiPropertyOptional({ type: WatchHolderDto, description: 'The holder, so that a renewed or replaced licence can be followed' })
  @ValidateNested({ message: watchHolder })
  @IsObject({ message: watchHolder })
  @Type(() => WatchHolderDto)
  @IsOptional()
  holder?: WatchHolderDto;

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description: 'Watch the successor licence with the same reference once it is found by name and date of birth',
  })
  @IsBoolean({ message: followSuccessor })
  @IsOptional()
  followSuccessor?: boolean;
}

/** The path of PUT and DELETE /v1/watchlist/{licenceNumber}. */
export class WatchedNumberParams {
  @IsLicenceNumber()
  licenceNumber!: string;
}

export class WatchBatchAddResultDto {
  @ApiProperty({ type: 'integer', example: 998, description: 'Numbers new to the watchlist' })
  added!: number;

  @ApiProperty({ type: 'integer', example: 2, description: 'Numbers already watched (their reference updated)' })
  updated!: number;
}

export class WatchEntryDto {
  @ApiLicenceNumber()
  licenceNumber!: string;

  @ApiProperty({ type: String, nullable: true, example: 'guard-0042' })
  reference!: string | null;

  @ApiProperty({ format: 'date-time' })
  addedAt!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['FOUND', 'NOT_FOUND', 'TOO_MANY_RESULTS'],
    example: 'FOUND',
    description: 'The latest re-check, as verify answers it; null until the first re-check',
  })
  status!: string | null;

  @ApiProperty({ type: LicenceDto, nullable: true, description: 'The latest known licence, as verify returns it' })
  licence!: LicenceDto | null;

  @ApiProperty({ type: String, nullable: true, format: 'date-time', example: '2026-11-22T10:15:00.000Z' })
  checkedAt!: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'date-time', example: null, description: 'When a re-check last found a change' })
  lastChangedAt!: string | null;

  @ApiProperty({ type: 'integer', nullable: true, example: 196, description: 'Days until expiryDate (UTC); negative once expired' })
  expiresInDays!: number | null;

  @ApiProperty({ enum: ['ACTIVE', 'PAUSED'], example: 'ACTIVE' })
  state!: string;

  @ApiProperty({ type: String, nullable: true, enum: ['QUOTA_EXCEEDED'], example: null, description: 'Why the entry is paused' })
  pausedReason!: string | null;

  @ApiModeProperty()
  mode!: KeyMode;

  @ApiPropertyOptional({
    type: String,
    pattern: '^\\d{16}$',
    example: '1252334455667700',
    description: 'Present once a re-check found the licence that replaced this one (see licence.replaced)',
  })
  successorLicenceNumber?: string;
}

export class WatchlistPageDto {
  @ApiProperty({ type: [WatchEntryDto] })
  items!: WatchEntryDto[];

  @ApiProperty({ type: String, nullable: true, example: null, description: 'Pass as cursor for the next page; null on the last one' })
  nextCursor!: string | null;
}
