import { ApiProperty, DECORATORS } from '@nestjs/swagger';
import type { RegisterLicence } from '@lvs/register';
import { LicenceDto } from '../../common/licence.dto';
import { verificationAnswer, VerificationBody, VerificationStatus } from '../outcome-status';

const EXAMPLE_CHECKED_AT = '2026-11-22T10:15:00.000Z';
export const EXAMPLE_VERIFICATION_ID = '5d1c7c4e-8f0a-4c61-9a5e-2b7f0e3d9c11';

/**
 * The verification result (interface 2.2) comes in one shape per status, so that each HTTP status of the
 * document names the one status value it carries and whether `licence` and `checkedAt` can be null.
 */
abstract class VerificationResultFields {
  @ApiProperty({ description: 'Human-readable status message' })
  message!: string;
}

abstract class FinishedVerificationFields extends VerificationResultFields {
  @ApiProperty({ format: 'date-time', description: 'When the register was asked (the cached answer keeps its time)' })
  checkedAt!: string;

  @ApiProperty({
    format: 'uuid',
    example: EXAMPLE_VERIFICATION_ID,
    description:
      'The verification record of this answer (GET /v1/verifications/{id}, its signed receipt at /receipt); a replay with the same Idempotency-Key answers the same id',
  })
  verificationId!: string;
}

const ApiNullLicence = () => ApiProperty({ type: 'null', description: 'Filled only when status is FOUND' });

export class VerificationFoundDto extends FinishedVerificationFields {
  @ApiProperty({ enum: ['FOUND'], description: 'Always FOUND with HTTP 200' })
  status!: 'FOUND';

  @ApiProperty({ type: () => LicenceDto })
  licence!: LicenceDto;
}

export class VerificationNotFoundDto extends FinishedVerificationFields {
  @ApiProperty({ enum: ['NOT_FOUND'], description: 'Always NOT_FOUND with HTTP 404' })
  status!: 'NOT_FOUND';

  @ApiNullLicence()
  licence!: null;
}

export class VerificationTooManyResultsDto extends FinishedVerificationFields {
  @ApiProperty({ enum: ['TOO_MANY_RESULTS'], description: 'Always TOO_MANY_RESULTS with HTTP 409' })
  status!: 'TOO_MANY_RESULTS';

  @ApiNullLicence()
  licence!: null;
}

export class VerificationPendingDto extends VerificationResultFields {
  @ApiProperty({ enum: ['PENDING'], description: 'Always PENDING with HTTP 202' })
  status!: 'PENDING';

  @ApiNullLicence()
  licence!: null;

  @ApiProperty({ type: 'null', description: 'The register has not answered yet' })
  checkedAt!: null;
}

/** The licence made of the examples declared beside LicenceDto's fields, so they are written once. */
export function exampleLicence(): RegisterLicence {
  const fields = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, LicenceDto.prototype) as string[];
  return Object.fromEntries(
    fields
      .map((field) => field.slice(1)) // stored as ":name"
      // eslint-disable-next-line @typescript-eslint/no-unsafe-member-access -- Swagger's property metadata is untyped
      .map((name) => [name, Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, LicenceDto.prototype, name).example]),
  ) as RegisterLicence;
}

/** The answer the service gives for a status (HTTP status and body), built by the mapping the controller uses. */
export function exampleVerificationAnswer(status: VerificationStatus): { httpStatus: number; body: VerificationBody } {
  if (status === 'PENDING') return verificationAnswer('PENDING');
  const licence = status === 'FOUND' ? exampleLicence() : null;
  return verificationAnswer({ status, licence, checkedAt: EXAMPLE_CHECKED_AT }, EXAMPLE_VERIFICATION_ID);
}
