import { ApiProperty } from '@nestjs/swagger';

/** The verification request (interface 2.1), as documented; readVerifyBody reads it. */
export class VerifyLicenceDto {
  @ApiProperty({ example: '1011001544208079', pattern: '^[0-9]{16}$', description: 'The 16-digit licence number' })
  licenceNumber!: string;
}
