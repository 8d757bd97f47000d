import { ApiProperty } from '@nestjs/swagger';
import { ERROR_CODES } from './error-codes';

/** The error body of the contract (interface 2.5), for the OpenAPI document. */
export class ErrorBody {
  @ApiProperty({ enum: Object.keys(ERROR_CODES), example: 'VALIDATION_ERROR' })
  code!: string;

  @ApiProperty({ example: 'Licence number must be 16 digits' })
  message!: string;
}
