import { ApiProperty } from '@nestjs/swagger';
import { FEATURE_VALIDATION_MESSAGES } from '../../errors/error-codes';
import { QueryInteger } from '../../validation/query-integer.decorator';
import { UnknownFieldMessage } from '../../validation/request-dto.decorators';

const { historyMonths, historyQuery } = FEATURE_VALIDATION_MESSAGES;

export const DEFAULT_HISTORY_MONTHS = 12;

/** GET /v1/quota/history: how many periods, ending with the current one. */
@UnknownFieldMessage(historyQuery)
export class QuotaHistoryQuery {
  @QueryInteger({
    min: 1,
    max: 24,
    message: historyMonths,
    fallback: DEFAULT_HISTORY_MONTHS,
    description: 'How many monthly periods, ending with the current one, 1-24',
  })
  months: number = DEFAULT_HISTORY_MONTHS;
}

export class QuotaPeriodDto {
  @ApiProperty({ example: '2026-11', pattern: '^[0-9]{4}-[0-9]{2}$', description: 'Billing period, YYYY-MM' })
  period!: string;

  @ApiProperty({ type: 'integer', minimum: 0, example: 42, description: 'Distinct licence numbers verified in the period' })
  used!: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    nullable: true,
    example: 1000,
    description: "The user's monthly limit as it is now (limits are not kept per period); null for an unlimited plan",
  })
  quota!: number | null;
}

export class QuotaHistoryDto {
  @ApiProperty({ type: [QuotaPeriodDto], description: 'One entry per period, oldest first, the current period last' })
  periods!: QuotaPeriodDto[];
}
