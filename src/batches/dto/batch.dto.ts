import { KeyMode } from '../../auth/key-mode';
import { ApiModeProperty } from '../../auth/mode-property';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { HolderCheckDto } from '../../holders/dto/holder-answers.dto';
import { ApiLicenceNumber } from '../../validation/licence-number.decorator';
import { LicenceDto } from '../../common/licence.dto';

const ITEM_STATUS_ENUM = ['FOUND', 'NOT_FOUND', 'TOO_MANY_RESULTS', 'PENDING', 'ERROR'];

export class BatchCountsDto {
  @ApiProperty({ type: 'integer', example: 812 })
  FOUND!: number;

  @ApiProperty({ type: 'integer', example: 180 })
  NOT_FOUND!: number;

  @ApiProperty({ type: 'integer', example: 2 })
  TOO_MANY_RESULTS!: number;

  @ApiProperty({ type: 'integer', example: 0 })
  PENDING!: number;

  @ApiProperty({ type: 'integer', example: 6 })
  ERROR!: number;
}

export class BatchItemDto {
  @ApiProperty({ type: 'integer', example: 1, description: 'Position in the request, from 1' })
  index!: number;

  @ApiLicenceNumber()
  licenceNumber!: string;

  @ApiProperty({ type: String, nullable: true, example: 'guard-0042' })
  reference!: string | null;

  @ApiProperty({ enum: ITEM_STATUS_ENUM, example: 'FOUND' })
  status!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['SERVICE_UNAVAILABLE', 'PARSE_ERROR', 'INTERNAL_ERROR'],
    example: null,
    description: 'Why the lookup failed, when status is ERROR (retry with POST /v1/batches/{id}/retry)',
  })
  errorCode!: string | null;

  @ApiProperty({ type: LicenceDto, nullable: true, description: 'Filled when status is FOUND; null otherwise' })
  licence!: LicenceDto | null;

  @ApiProperty({ type: String, nullable: true, example: '2026-11-22T10:15:00.000Z', description: 'When the register was asked' })
  checkedAt!: string | null;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    example: '5d1c7c4e-8f0a-4c61-9a5e-2b7f0e3d9c11',
    description:
      "The row's verification record (GET /v1/verifications/{id}), once its answer is final (with its holder check, if it names a holder); null while PENDING and on ERROR",
  })
  verificationId!: string | null;

  @ApiPropertyOptional({
    type: HolderCheckDto,
    nullable: true,
    description: 'Only on a row that names a holder: as verify-holder answers it once the licence is found, null otherwise',
  })
  holderCheck?: HolderCheckDto | null;
}

export class BatchSummaryDto {
  @ApiProperty({ format: 'uuid', example: '0b6f3f8e-5c1d-4f7a-9e2b-3c4d5e6f7a8b' })
  id!: string;

  @ApiProperty({ enum: ['RUNNING', 'COMPLETED'], example: 'COMPLETED' })
  status!: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:15:00.000Z' })
  createdAt!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-11-22T10:15:07.000Z' })
  completedAt!: string | null;

  @ApiProperty({ type: 'integer', example: 1000 })
  total!: number;

  @ApiProperty({ type: BatchCountsDto, description: 'Items per result' })
  counts!: BatchCountsDto;

  @ApiModeProperty()
  mode!: KeyMode;
}

export class BatchDto extends BatchSummaryDto {
  @ApiProperty({ type: [BatchItemDto], description: 'One page of items, in request order' })
  items!: BatchItemDto[];

  @ApiProperty({ type: String, nullable: true, example: null, description: 'Pass as cursor for the next page; null on the last' })
  nextCursor!: string | null;
}

export class BatchListDto {
  @ApiProperty({ type: [BatchSummaryDto], description: 'Newest first' })
  batches!: BatchSummaryDto[];

  @ApiProperty({ type: String, nullable: true, example: null, description: 'Pass as cursor for the next page; null on the last' })
  nextCursor!: string | null;
}
