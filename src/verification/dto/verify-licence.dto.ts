import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';

/** The verification request (interface 2.1). */
export class VerifyLicenceDto {
  @ApiProperty({ example: '1011001544208079', pattern: '^[0-9]{16}$', description: 'The 16-digit licence number' })
  @IsString()
  @Matches(/^[0-9]{16}$/)
  licenceNumber!: string;
}
