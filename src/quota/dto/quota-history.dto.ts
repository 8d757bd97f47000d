import { ApiProperty } from '@nestjs/swagger';
import { QuotaPeriodDto } from './quota-usage.dto';
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

export class QuotaHistoryDto {
  @ApiProperty({ type: [QuotaPeriodDto], description: 'One entry per period, oldest first, the current period last' })
  periods!: QuotaPeriodDto[];
}
