import { KeyMode } from '../../auth/key-mode';
import { ApiModeProperty } from '../../auth/mode-property';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsIn, IsString, MaxLength, ValidateIf } from 'class-validator';
import { FEATURE_VALIDATION_MESSAGES } from '../../errors/error-codes';
import { UnknownFieldMessage } from '../../validation/request-dto.decorators';
import { EVENT_TYPES, EventType } from '../../events/event-types';

const { webhookBody, webhookChange, webhookUrl } = FEATURE_VALIDATION_MESSAGES;

export const MAX_WEBHOOK_URL_LENGTH = 2048;

const URL_EXAMPLE = 'https://partner.example/hooks/licences';
const URL_DESCRIPTION = 'https; the host must not be a private, loopback or link-local address';

/** A URL's rules, `message` when it is not text. class-validator checks a property's decorators bottom-up. */
function WebhookUrlRules(message: string): PropertyDecorator {
  return applyDecorators(IsString({ message }), MaxLength(MAX_WEBHOOK_URL_LENGTH, { message: webhookUrl }));
}

/** The event types' rules, `message` for any problem: a list of known types, each counted once, in the document as `description`. */
function WebhookEventRules(message: string, description: string): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (Array.isArray(value) ? [...new Set(value)] : value)),
    IsArray({ message }),
    ArrayNotEmpty({ message }),
    ArrayMaxSize(EVENT_TYPES.length, { message }),
    IsIn(EVENT_TYPES, { each: true, message }),
    ApiPropertyOptional({ enum: EVENT_TYPES, isArray: true, minItems: 1, maxItems: EVENT_TYPES.length, description }),
  );
}

/**
 * POST /v1/webhooks: {"url","events"}. The URL must also pass the SSRF rules, which depend on configuration
 * and so are checked by the controller.
 */
@UnknownFieldMessage(webhookBody)
export class CreateWebhookDto {
  @ApiProperty({ maxLength: MAX_WEBHOOK_URL_LENGTH, example: URL_EXAMPLE, description: URL_DESCRIPTION })
  @WebhookUrlRules(webhookBody)
  url!: string;

  @WebhookEventRules(webhookBody, 'Event types to send (default: all); each at most once, a repeated one is counted once')
  events: EventType[] = [...EVENT_TYPES];
}

/**
 * PATCH /v1/webhooks/{id}: the URL, the event types or both; what is absent stays. The fields of CreateWebhookDto
 * but none required, and an empty body refused as url's absence; a new URL passes the same SSRF rules.
 */
@UnknownFieldMessage(webhookChange)
export class UpdateWebhookDto {
  @ApiPropertyOptional({ maxLength: MAX_WEBHOOK_URL_LENGTH, example: URL_EXAMPLE, description: `The new URL: ${URL_DESCRIPTION}` })
  @WebhookUrlRules(webhookChange)
  // Checked when given, and when events is not: a body that changes nothing is refused.
  @ValidateIf((change: UpdateWebhookDto) => change.url !== undefined || change.events === undefined)
  url?: string;

  @WebhookEventRules(webhookChange, 'The event types to send from now on, replacing the current ones; each at most once, a repeated one is counted once')
  @ValidateIf((_change: UpdateWebhookDto, events: unknown) => events !== undefined)
  events?: EventType[];
}

export class WebhookDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'https://partner.example/hooks/licences' })
  url!: string;

  @ApiProperty({ enum: EVENT_TYPES, isArray: true })
  events!: string[];

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ description: 'false once disabled (a 410 answer, or 3 days of failures)' })
  enabled!: boolean;

  @ApiProperty({ type: String, nullable: true, format: 'date-time', example: null })
  disabledAt!: string | null;

  @ApiProperty({ type: String, nullable: true, enum: ['GONE', 'FAILING_FOR_3_DAYS'], example: null })
  disabledReason!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    example: null,
    description: 'Since when deliveries fail; null when the last one succeeded',
  })
  failingSince!: string | null;

  @ApiModeProperty()
  mode!: KeyMode;
}

export class CreatedWebhookDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  url!: string;

  @ApiProperty({ enum: EVENT_TYPES, isArray: true })
  events!: string[];

  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'The signing secret, shown only in this answer' })
  secret!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiModeProperty()
  mode!: KeyMode;
}

export class WebhookListDto {
  @ApiProperty({ type: [WebhookDto] })
  webhooks!: WebhookDto[];
}

export class RotatedSecretDto {
  @ApiProperty({ example: 'whsec_…', description: 'The new secret; the previous one also signs for 24 hours' })
  secret!: string;

  @ApiProperty({ format: 'date-time', description: 'Until when the previous secret still signs' })
  previousSecretExpiresAt!: string;
}

export class DeliveryAttemptDto {
  @ApiProperty({ type: 'integer', example: 1 })
  attempt!: number;

  @ApiProperty({ format: 'date-time' })
  attemptedAt!: string;

  @ApiProperty({ type: 'integer', nullable: true, example: 200, description: 'null when no answer came' })
  responseStatus!: number | null;

  @ApiProperty({ type: 'integer', example: 35 })
  durationMs!: number;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description:
      'Why no answer came: a network error or timeout, or "url refused: …" when the SSRF guard refused the address ' +
      'at delivery time (final: not retried)',
  })
  error!: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'date-time', example: null })
  nextAttemptAt!: string | null;
}

export class DeliveryDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'uuid', description: 'The event id, sent as webhook-id on every attempt' })
  eventId!: string;

  @ApiProperty({ enum: EVENT_TYPES })
  eventType!: string;

  @ApiProperty({ enum: ['PENDING', 'DELIVERED', 'FAILED'] })
  status!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ type: [DeliveryAttemptDto] })
  attempts!: DeliveryAttemptDto[];
}

export class DeliveryListDto {
  @ApiProperty({ type: [DeliveryDto], description: 'Newest first, at most 100' })
  deliveries!: DeliveryDto[];
}
