import { KeyMode } from '../../auth/key-mode';
import { ApiModeProperty } from '../../auth/mode-property';
import { ApiProperty } from '@nestjs/swagger';
import { EVENT_TYPES } from '../event-types';

export class EventDto {
  @ApiProperty({ format: 'uuid', description: 'Also sent as the webhook-id header' })
  id!: string;

  @ApiProperty({ enum: EVENT_TYPES, example: 'licence.status_changed' })
  type!: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:15:00.000Z' })
  timestamp!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'licence.*: {licenceNumber, reference, previous, current} with licence objects as verify returns them, or null; ' +
      'licence.expiring adds daysLeft; watch.paused and watch.resumed: {licenceNumber, reference, reason}; ping: {endpointId}',
    example: { licenceNumber: '1011001544208079', reference: 'guard-0042', previous: null, current: null },
  })
  data!: Record<string, unknown>;

  @ApiModeProperty()
  mode!: KeyMode;
}

export class EventFeedDto {
  @ApiProperty({ type: [EventDto] })
  events!: EventDto[];

  @ApiProperty({ description: 'Pass as after= to get the events that follow; the same value when there are none yet', example: '42' })
  nextCursor!: string;
}
