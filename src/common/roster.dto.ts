import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, ValidateBy, ValidateIf, ValidateNested } from 'class-validator';
import { EXAMPLE_LICENCE_NUMBER, LICENCE_NUMBER_LENGTH, LICENCE_NUMBER_PATTERN } from '../validation/licence-number';
import { IsLicenceNumber } from '../validation/licence-number.decorator';
import { IsReference } from '../validation/reference.decorator';
import { IsDateOfBirth, IsHolderName } from '../validation/holder-fields.decorator';
import { FEATURE_VALIDATION_MESSAGES, ROW_MESSAGES } from '../errors/error-codes';
import { numberRows, rowNumbersOf } from '../validation/numbered-rows';
import { UnknownFieldMessage } from '../validation/request-dto.decorators';
import { MAX_BATCH_ITEMS } from './roster';

const { batchShape, batchSize } = FEATURE_VALIDATION_MESSAGES;

/** One row of a roster: problems are told with the row's number ("Row 17: …"). */
@UnknownFieldMessage(ROW_MESSAGES.item)
export class RosterItemDto {
  @IsLicenceNumber(ROW_MESSAGES.licenceNumber)
  licenceNumber!: string;

  @IsReference(ROW_MESSAGES.reference, 'Your own id for the row')
  reference?: string | null;

  @IsHolderName(ROW_MESSAGES.holderName, {
    example: 'Olivia',
    description: "The holder's first name, with surname: the row's result gets holderCheck, as verify-holder answers it",
    requiredWhen: hasHolderName,
  })
  firstName?: string;

  @IsHolderName(ROW_MESSAGES.holderName, { example: 'Hughes', description: "The holder's surname, with firstName", requiredWhen: hasHolderName })
  surname?: string;

  @IsDateOfBirth(ROW_MESSAGES.dateOfBirth, 'YYYY-MM-DD, with firstName and surname; confirmed by one name search. Never stored in clear', (row) => {
    const { firstName, surname } = row as RosterItemDto;
    return firstName !== undefined && surname !== undefined;
  })
  dateOfBirth?: string;
}

/** A row that names a holder at all must name both parts: a first name alone, or a surname alone, is refused. */
function hasHolderName(row: object): boolean {
  const { firstName, surname } = row as RosterItemDto;
  return firstName !== undefined || surname !== undefined;
}

function rosterItem(licenceNumber: unknown): RosterItemDto {
  return Object.assign(new RosterItemDto(), { licenceNumber });
}

/** Exactly one of the two shapes: the other field absent. */
const OneShape = () =>
  ValidateBy(
    { name: 'oneRosterShape', validator: { validate: (_value, args) => (args?.object as RosterDto).licenceNumbers === undefined } },
    { message: batchShape },
  );

/** 1 to 1,000 rows, numbered as the caller counts them (a CSV reader may have numbered them already). */
const Rows = () =>
  applyDecorators(
    IsArray({ message: batchShape }),
    ArrayMinSize(1, { message: batchSize }),
    ArrayMaxSize(MAX_BATCH_ITEMS, { message: batchSize }),
    ValidateNested({ each: true, message: ROW_MESSAGES.item }),
  );

/**
 * A roster, for POST /v1/batches and POST /v1/watchlist:batchAdd: {"items":[{licenceNumber, reference?}]} or
 * {"licenceNumbers":[…]}; a CSV roster is read into the first shape. Whichever came, `items` holds it.
 */
@UnknownFieldMessage(batchShape)
export class RosterDto {
  // Declared first, so that its problems come first; class-validator checks a property's decorators bottom-up.
  @ValidateIf((roster: RosterDto) => roster.licenceNumbers === undefined || roster.items !== undefined)
  @ApiPropertyOptional({
    type: [RosterItemDto],
    minItems: 1,
    maxItems: MAX_BATCH_ITEMS,
    description: 'The rows, each with an optional reference; send this or licenceNumbers',
  })
  @Rows()
  @Type(() => RosterItemDto)
  @Transform(({ value, obj }: { value: unknown; obj: unknown }) =>
    Array.isArray(value) ? numberRows(value, rowNumbersOf((obj as { items?: unknown }).items)) : value,
  )
  @OneShape()
  items?: RosterItemDto[];

  @ValidateIf((roster: RosterDto) => roster.licenceNumbers !== undefined)
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', pattern: LICENCE_NUMBER_PATTERN.source, maxLength: LICENCE_NUMBER_LENGTH },
    minItems: 1,
    maxItems: MAX_BATCH_ITEMS,
    example: [EXAMPLE_LICENCE_NUMBER, '1888000000000000'],
    description: 'The numbers alone; send this or items',
  })
  @Rows()
  @Transform(({ value }: { value: unknown }) => (Array.isArray(value) ? numberRows(value.map(rosterItem)) : value))
  licenceNumbers?: RosterItemDto[];
}
