import { KeyMode } from '../../auth/key-mode';
import { ApiModeProperty } from '../../auth/mode-property';
import { ApiProperty } from '@nestjs/swagger';
import { LicenceDto } from '../../common/licence.dto';
import type { VerificationRecord } from '../verification-record';

const EXAMPLE_ID = '5d1c7c4e-8f0a-4c61-9a5e-2b7f0e3d9c11';

/** A verification record (GET /v1/verifications/{id}): the answer as given, whom to, when, from what. */
export class VerificationRecordDto implements VerificationRecord {
  @ApiProperty({ format: 'uuid', example: EXAMPLE_ID, description: 'The id the answer carried' })
  verificationId!: string;

  @ApiProperty({ format: 'uuid', description: 'The user answered' })
  userId!: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The API key that asked; null for a member in the console' })
  keyId!: string | null;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The member who asked in the console, or uploaded the roster there; null for a key (an API call, a roster sent with a key)',
  })
  memberId!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The request id (X-Request-Id) of the request answered, or that created the roster' })
  requestId!: string | null;

  @ApiProperty({ type: String, nullable: true, description: "The effective Idempotency-Key: yours, or the derived one; a roster's own key, or null" })
  idempotencyKey!: string | null;

  @ApiProperty({ pattern: '^[0-9]{16}$', example: '1011001544208079' })
  licenceNumber!: string;

  @ApiProperty({ enum: ['FOUND', 'NOT_FOUND', 'TOO_MANY_RESULTS'] })
  status!: 'FOUND' | 'NOT_FOUND' | 'TOO_MANY_RESULTS';

  @ApiProperty({ type: LicenceDto, nullable: true, description: 'The licence as answered when FOUND; null otherwise' })
  licence!: LicenceDto | null;

  @ApiProperty({ format: 'date-time', description: 'When the register was asked' })
  checkedAt!: string;

  @ApiProperty({ format: 'date-time', description: 'When we answered' })
  answeredAt!: string;

  @ApiProperty({ enum: ['register', 'cache'], description: 'register: asked for this answer; cache: a stored result answered' })
  source!: 'register' | 'cache';

  @ApiProperty({ type: String, enum: ['MATCH', 'PARTIAL', 'MISMATCH'], nullable: true, description: 'Holder checks of a found licence only' })
  nameCheck!: 'MATCH' | 'PARTIAL' | 'MISMATCH' | null;

  @ApiProperty({
    type: String,
    enum: ['CONFIRMED', 'NOT_CONFIRMED', 'UNDETERMINED', 'NOT_CHECKED'],
    nullable: true,
    description: 'Holder checks of a found licence only; the date of birth itself is never recorded',
  })
  dateOfBirthCheck!: 'CONFIRMED' | 'NOT_CONFIRMED' | 'UNDETERMINED' | 'NOT_CHECKED' | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Roster rows only: the batch' })
  batchId!: string | null;

  @ApiProperty({ type: 'integer', nullable: true, minimum: 1, description: "Roster rows only: the row, from 1, as in the roster's results" })
  row!: number | null;

  @ApiProperty({ enum: ['api', 'console', 'batch'] })
  channel!: 'api' | 'console' | 'batch';

  @ApiModeProperty()
  mode!: KeyMode;
}

export class VerificationListDto {
  @ApiProperty({ type: [VerificationRecordDto], description: 'Newest first' })
  verifications!: VerificationRecordDto[];

  @ApiProperty({ type: String, nullable: true, example: null, description: 'Pass as cursor for the next page; null on the last' })
  nextCursor!: string | null;
}
