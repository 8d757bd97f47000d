import { FEATURE_VALIDATION_MESSAGES } from '../../errors/error-codes';
import { IsDateOfBirth, IsHolderName, LICENCE_SECTOR_PATTERN } from '../../validation/holder-fields.decorator';
import { IsLicenceNumber } from '../../validation/licence-number.decorator';
import { UnknownFieldMessage } from '../../validation/request-dto.decorators';

const { holderBody, searchBody, surname, firstName, middleName, role, licenceSector, dateOfBirth } = FEATURE_VALIDATION_MESSAGES;

const DATE_OF_BIRTH = 'YYYY-MM-DD. Never stored or logged in clear; the register confirms it by a name search, since its cards never show it';

/** POST /v1/licences/verify-holder: the number, the name of the person who claims it, and an optional date of birth. */
@UnknownFieldMessage(holderBody)
export class VerifyHolderDto {
  @IsLicenceNumber()
  licenceNumber!: string;

  @IsHolderName(firstName, { example: 'Olivia', description: 'First name as the person gives it; compared with the card after normalising' })
  firstName!: string;

  @IsHolderName(surname, { example: 'Hughes', description: 'Surname as the person gives it; compared with the card after normalising' })
  surname!: string;

  @IsDateOfBirth(dateOfBirth, DATE_OF_BIRTH)
  dateOfBirth?: string;
}

/** POST /v1/licences/search: the register's search by name; the surname is required, every other field narrows it. */
@UnknownFieldMessage(searchBody)
export class NameSearchDto {
  @IsHolderName(surname, { example: 'Hughes', description: 'Surname; the register ignores case' })
  surname!: string;

  @IsHolderName(firstName, { example: 'Olivia', description: 'First name', optional: true })
  firstName?: string;

  @IsHolderName(middleName, { example: 'Jane', description: 'Middle name', optional: true })
  middleName?: string;

  @IsDateOfBirth(dateOfBirth, DATE_OF_BIRTH)
  dateOfBirth?: string;

  @IsHolderName(role, { example: 'Front Line', description: 'Front Line or Non Front Line', optional: true })
  role?: string;

  @IsHolderName(licenceSector, {
    example: 'Door Supervision',
    description: "One of the register's sector names",
    optional: true,
    pattern: LICENCE_SECTOR_PATTERN,
  })
  licenceSector?: string;
}
