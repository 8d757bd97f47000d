import { ApiProperty } from '@nestjs/swagger';

/** The quota usage record (interface 2.4). */
export class QuotaUsageDto {
  @ApiProperty({ example: '2026-11', pattern: '^[0-9]{4}-[0-9]{2}$', description: 'Current billing period, YYYY-MM' })
  period!: string;

  @ApiProperty({ type: 'integer', minimum: 0, example: 42, description: 'Verifications used in the current period' })
  used!: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    nullable: true,
    example: 1000,
    description: 'Monthly limit; null for an unlimited plan',
  })
  quota!: number | null;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    nullable: true,
    example: 958,
    description: 'Remaining this period; null for an unlimited plan',
  })
  remaining!: number | null;
}
