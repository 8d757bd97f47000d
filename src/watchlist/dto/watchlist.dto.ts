import { ApiProperty } from '@nestjs/swagger';
import { ApiLicenceNumber, IsLicenceNumber } from '../../validation/licence-number.decorator';
import { IsReference } from '../../validation/reference.decorator';
import { FEATURE_VALIDATION_MESSAGES } from '../../errors/error-codes';
import { OptionalBody, UnknownFieldMessage } from '../../validation/request-dto.decorators';
import { LicenceDto } from '../../verification/dto/verification-result.dto';

/** PUT /v1/watchlist/{licenceNumber}: no body, or {"reference"}. */
@OptionalBody()
@UnknownFieldMessage(FEATURE_VALIDATION_MESSAGES.watchBody)
export class WatchRequestDto {
  @IsReference(FEATURE_VALIDATION_MESSAGES.watchReference, 'Your own id for the number')
  reference?: string | null;
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
}

export class WatchlistPageDto {
  @ApiProperty({ type: [WatchEntryDto] })
  items!: WatchEntryDto[];

  @ApiProperty({ type: String, nullable: true, example: null, description: 'Pass as cursor for the next page; null on the last one' })
  nextCursor!: string | null;
}
