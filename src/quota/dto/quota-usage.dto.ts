import { ApiProperty } from '@nestjs/swagger';

/** The quota usage record (interface 2.4). */
export class QuotaUsageDto {
  @ApiProperty({ example: '2026-11', description: 'Current billing period, YYYY-MM' })
  period!: string;

  @ApiProperty({ example: 42, description: 'Verifications used in the current period' })
  used!: number;

  @ApiProperty({ type: Number, nullable: true, example: 1000, description: 'Monthly limit; null for an unlimited plan' })
  quota!: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 958, description: 'Remaining this period; null for an unlimited plan' })
  remaining!: number | null;
}
