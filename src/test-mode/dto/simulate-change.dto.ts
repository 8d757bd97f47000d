import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { FEATURE_VALIDATION_MESSAGES } from '../../errors/error-codes';
import { IsLicenceNumber } from '../../validation/licence-number.decorator';
import { LICENCE_NUMBER_LENGTH, LICENCE_NUMBER_PATTERN } from '../../validation/licence-number';
import { OptionalBody, UnknownFieldMessage } from '../../validation/request-dto.decorators';
import { LicenceDto } from '../../common/licence.dto';

const message = FEATURE_VALIDATION_MESSAGES.simulateBody;
// A letter, then up to 39 letters and spaces: 40 characters at most, as the document says.
const STATUS_PATTERN = /^[A-Za-z][A-Za-z ]{0,39}$/;
const given = (field: string) => ValidateIf((body: Record<string, unknown>) => body[field] !== undefined);

/** POST /v1/test/licences/{licenceNumber}: the fields to change, each optional; no body changes nothing (but creates). */
@OptionalBody()
@UnknownFieldMessage(message)
export class SimulateChangeDto {
  @ApiPropertyOptional({ example: 'Revoked', pattern: STATUS_PATTERN.source, maxLength: 40, description: "The register's word for the new status" })
  @given('status')
  @Matches(STATUS_PATTERN, { message })
  status?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, example: 'Revoked following a relevant conviction' })
  @ValidateIf((body: SimulateChangeDto) => body.statusReason !== undefined && body.statusReason !== null)
  @IsString({ message })
  @MaxLength(200, { message })
  statusReason?: string | null;

  @ApiPropertyOptional({ format: 'date', maxLength: 10, example: '2026-12-10', description: 'YYYY-MM-DD' })
  @given('expiryDate')
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message })
  @IsISO8601({ strict: true }, { message })
  expiryDate?: string;

  @ApiPropertyOptional({
    pattern: LICENCE_NUMBER_PATTERN.source,
    maxLength: LICENCE_NUMBER_LENGTH,
    example: '4000000000000099',
    description: 'A licence of the same holder that replaces this one: created Active when the test register has none there',
  })
  @given('successorLicenceNumber')
  @Matches(LICENCE_NUMBER_PATTERN, { message })
  successorLicenceNumber?: string;
}

/** The path of POST and DELETE /v1/test/licences/{licenceNumber}. */
export class TestLicenceParams {
  @IsLicenceNumber()
  licenceNumber!: string;
}

/** What the caller's test register now answers for the number. */
export class TestLicenceDto {
  @ApiProperty({
    enum: ['FOUND', 'NOT_FOUND', 'TOO_MANY_RESULTS', 'SERVICE_UNAVAILABLE', 'PARSE_ERROR'],
    example: 'FOUND',
    description: "What a verification of the number now answers (a failure's error code for the failure numbers)",
  })
  status!: string;

  @ApiProperty({ type: LicenceDto, nullable: true, description: 'The licence, when the status is FOUND' })
  licence!: LicenceDto | null;
}
