import { ApiProperty } from '@nestjs/swagger';
import { LicenceDto } from '../../common/licence.dto';
import {
  VerificationFoundDto,
  VerificationNotFoundDto,
  VerificationPendingDto,
  VerificationTooManyResultsDto,
} from '../../verification/dto/verification-result.dto';

export class HolderCheckDto {
  @ApiProperty({
    enum: ['MATCH', 'PARTIAL', 'MISMATCH'],
    example: 'MATCH',
    description:
      "The claimed name against the card's, both normalised (accents removed, upper case, apostrophes and full stops removed, " +
      'hyphens and spaces one separator). MATCH: surname and first name equal. PARTIAL: surname equal, and the first names share ' +
      'their first part or one is an initial of the other. MISMATCH: anything else',
  })
  name!: string;

  @ApiProperty({
    enum: ['CONFIRMED', 'NOT_CONFIRMED', 'UNDETERMINED', 'NOT_CHECKED'],
    example: 'CONFIRMED',
    description:
      "A name search with the card's names and the date given: CONFIRMED when it finds this number, NOT_CONFIRMED when it finds " +
      'nothing or only other numbers, UNDETERMINED when the register finds too many to list, NOT_CHECKED without a date',
  })
  dateOfBirth!: string;
}

const ApiNullHolderCheck = () => ApiProperty({ type: 'null', description: 'Filled only when status is FOUND' });

export class HolderFoundDto extends VerificationFoundDto {
  @ApiProperty({ type: () => HolderCheckDto })
  holderCheck!: HolderCheckDto;
}

export class HolderNotFoundDto extends VerificationNotFoundDto {
  @ApiNullHolderCheck()
  holderCheck!: null;
}

export class HolderTooManyResultsDto extends VerificationTooManyResultsDto {
  @ApiNullHolderCheck()
  holderCheck!: null;
}

export class HolderPendingDto extends VerificationPendingDto {
  @ApiNullHolderCheck()
  holderCheck!: null;
}

abstract class SearchAnswerFields {
  @ApiProperty({ description: 'Human-readable status message' })
  message!: string;

  @ApiProperty({
    type: 'boolean',
    nullable: true,
    description:
      'Whether the dateOfBirth given was applied to the search: false when you have searched HOLDER_DATE_CHECKS_PER_NUMBER other ' +
      'dates for these names this month, and the search ran without it; null when no date was given',
  })
  dateOfBirthApplied!: boolean | null;
}

export class SearchFoundDto extends SearchAnswerFields {
  @ApiProperty({ enum: ['FOUND'], description: 'Always FOUND with HTTP 200' })
  status!: 'FOUND';

  @ApiProperty({ type: [LicenceDto], minItems: 1, description: 'Every licence the register lists for the search, as verify shows them' })
  licences!: LicenceDto[];

  @ApiProperty({ format: 'date-time', description: 'When the register was asked (the cached answer keeps its time)' })
  checkedAt!: string;
}

export class SearchNotFoundDto extends SearchAnswerFields {
  @ApiProperty({ enum: ['NOT_FOUND'], description: 'Always NOT_FOUND with HTTP 404' })
  status!: 'NOT_FOUND';

  @ApiProperty({ type: [LicenceDto], maxItems: 0, description: 'Always empty' })
  licences!: LicenceDto[];

  @ApiProperty({ format: 'date-time', description: 'When the register was asked' })
  checkedAt!: string;
}

export class SearchPendingDto extends SearchAnswerFields {
  @ApiProperty({ enum: ['PENDING'], description: 'Always PENDING with HTTP 202' })
  status!: 'PENDING';

  @ApiProperty({ type: [LicenceDto], maxItems: 0, description: 'Always empty' })
  licences!: LicenceDto[];

  @ApiProperty({ type: 'null', description: 'The register has not answered yet' })
  checkedAt!: null;
}
