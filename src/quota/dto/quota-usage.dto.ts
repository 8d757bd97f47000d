import { ApiProperty } from '@nestjs/swagger';

/** One monthly period's usage: an entry of GET /v1/quota/history, and the core of GET /v1/quota/usage. */
export class QuotaPeriodDto {
  @ApiProperty({ example: '2026-11', pattern: '^[0-9]{4}-[0-9]{2}$', description: 'Billing period, YYYY-MM' })
  period!: string;

  @ApiProperty({ type: 'integer', minimum: 0, example: 42, description: 'Verifications used in the period' })
  used!: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    nullable: true,
    example: 1000,
    description: "Monthly limit, as the user's plan is now; null for an unlimited plan",
  })
  quota!: number | null;
}

/** The quota usage record (interface 2.4): the current period's. */
export class QuotaUsageDto extends QuotaPeriodDto {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    nullable: true,
    example: 958,
    description: 'Remaining this period; null for an unlimited plan',
  })
  remaining!: number | null;
}
