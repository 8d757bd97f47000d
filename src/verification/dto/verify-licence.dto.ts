import { IsLicenceNumber } from '../../validation/licence-number.decorator';
import { VALIDATION_MESSAGES } from '../../errors/error-codes';
import { UnknownFieldMessage } from '../../validation/request-dto.decorators';

/** The verification request (interface 2.1): exactly {"licenceNumber": "<16 digits>"}. */
@UnknownFieldMessage(VALIDATION_MESSAGES.unknownField)
export class VerifyLicenceDto {
  @IsLicenceNumber()
  licenceNumber!: string;
}
