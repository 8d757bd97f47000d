import { ApiProperty } from '@nestjs/swagger';
import type { RegisterLicence } from '@lvs/register';
import { ApiLicenceNumber } from '../validation/licence-number.decorator';

/** The licence object (interface 2.3), plus two fields the register shows; examples: the sandbox's FOUND licence. */
export class LicenceDto implements RegisterLicence {
  @ApiLicenceNumber()
  licenceNumber!: string;

  @ApiProperty({ example: 'JANE', description: "Holder's first name" })
  firstName!: string;

  @ApiProperty({ example: 'DOE', description: "Holder's last name" })
  surname!: string;

  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    example: null,
    description: 'YYYY-MM-DD; null: the public register does not show it',
  })
  dateOfBirth!: string | null;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'null: the public register does not show it' })
  licenceType!: string | null;

  @ApiProperty({ example: 'Front Line', description: 'Front Line or Non Front Line' })
  role!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'Door Supervision',
    description: 'Sector of the licence; null when the register shows none',
  })
  licenceSector!: string | null;

  @ApiProperty({ format: 'date', example: '2027-06-06', description: 'YYYY-MM-DD' })
  expiryDate!: string;

  @ApiProperty({ example: 'Active', description: "The register's text, e.g. Active, Expired, Revoked, Suspended" })
  status!: string;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'Why the licence has its status; null when not shown' })
  statusReason!: string | null;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'Additional licence conditions; null when none are shown' })
  additionalConditions!: string | null;
}
