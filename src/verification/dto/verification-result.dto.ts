import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The licence object (interface 2.3), plus two fields the register shows. */
export class LicenceDto {
  @ApiProperty({ example: '1011001544208079' })
  licenceNumber!: string;

  @ApiProperty({ example: 'JANE' })
  firstName!: string;

  @ApiProperty({ example: 'DOE' })
  surname!: string;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'YYYY-MM-DD; null: the public register does not show it' })
  dateOfBirth!: string | null;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'null: the public register does not show it' })
  licenceType!: string | null;

  @ApiProperty({ example: 'Front Line', description: 'Front Line or Non Front Line' })
  role!: string;

  @ApiProperty({ type: String, nullable: true, example: 'Door Supervision', description: 'null when the register shows none' })
  licenceSector!: string | null;

  @ApiProperty({ example: '2027-06-06', description: 'YYYY-MM-DD' })
  expiryDate!: string;

  @ApiProperty({ example: 'Active', description: "The register's text, e.g. Active, Expired, Revoked, Suspended" })
  status!: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: null, description: 'Why the licence has its status, when shown' })
  statusReason!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: null, description: 'Additional licence conditions, when shown' })
  additionalConditions!: string | null;
}

/** The verification result (interface 2.2) with the time the register was asked. */
export class VerificationResultDto {
  @ApiProperty({ enum: ['FOUND', 'NOT_FOUND', 'TOO_MANY_RESULTS', 'PENDING'], example: 'FOUND' })
  status!: string;

  @ApiProperty({ example: 'Licence found' })
  message!: string;

  @ApiProperty({ type: LicenceDto, nullable: true, description: 'Filled when status is FOUND; null otherwise' })
  licence!: LicenceDto | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-11-22T10:15:00.000Z',
    description: 'When the register was asked; null while PENDING',
  })
  checkedAt!: string | null;
}
