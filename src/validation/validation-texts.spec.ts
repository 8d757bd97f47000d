import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, ValidateNested } from 'class-validator';
import { FEATURE_VALIDATION_MESSAGES, ROW_MESSAGES, VALIDATION_MESSAGES } from '../errors/error-codes';
import { UnknownFieldMessage } from './request-dto.decorators';
import { dtoValidationTexts } from './validation-texts';

const { watchBody, watchReference, watchlistLimit } = FEATURE_VALIDATION_MESSAGES;

class Row {
  @IsString({ message: ROW_MESSAGES.licenceNumber })
  licenceNumber!: string;
}

@UnknownFieldMessage(watchBody)
class Example {
  @IsString({ message: VALIDATION_MESSAGES.licenceNumber })
  licenceNumber!: string;

  // The row table's reference text is the same as watchReference's: the request table names it.
  @IsOptional()
  @IsString({ message: watchReference })
  reference?: string;

  // Four entries share this text, so it is named after the property.
  @Max(1000, { message: watchlistLimit })
  @IsInt({ message: watchlistLimit })
  limit!: number;

  @ValidateNested({ each: true, message: ROW_MESSAGES.item })
  @Type(() => Row)
  rows!: Row[];
}

class Unlabelled {
  @IsString({ message: 'not in any table' })
  note!: string;
}

describe('dtoValidationTexts', () => {
  it('lists the unknown-field text, then each property text once, named as in the tables, without the nested rows', () => {
    expect(Object.entries(dtoValidationTexts(Example))).toEqual([
      ['watchBody', watchBody],
      ['licenceNumber', VALIDATION_MESSAGES.licenceNumber],
      ['watchReference', watchReference],
      ['limit', watchlistLimit],
    ]);
  });

  it('names a text no table lists after its property, and leaves out the generic unknown-field text', () => {
    expect(dtoValidationTexts(Unlabelled)).toEqual({ note: 'not in any table' });
  });
});
