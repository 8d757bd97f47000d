import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';
import { ACTIVITY_ACTIONS, ACTOR_TYPES } from '../../activity/activity-chain';
import type { ActivityAction, ActorType } from '../../activity/activity-chain';
import type { ActivityFilters } from '../../activity/activity-log';
import { FEATURE_VALIDATION_MESSAGES } from '../../errors/error-codes';
import { ISO_INSTANT_MAX_LENGTH } from '../../validation/iso-instant';
import { NEWEST_FIRST_CURSOR_MAX_LENGTH, NewestFirstCursor, PageCursor, PageLimit, PageSize, readNewestFirstCursor } from '../../validation/paging';
import { UnknownFieldMessage } from '../../validation/request-dto.decorators';

const { activityLimit, cursor, activityAction, activityActorType, activityActorId, activityFrom, activityTo, activityQuery } = FEATURE_VALIDATION_MESSAGES;

const ACTIVITY_PAGE: PageSize = { max: 1000, fallback: 100, message: activityLimit, noun: 'Events' };

/** GET /v1/activity: one page of the caller's account's activity log, newest first. */
@UnknownFieldMessage(activityQuery)
export class ActivityQuery {
  @PageLimit(ACTIVITY_PAGE)
  limit: number = ACTIVITY_PAGE.fallback;

  @PageCursor(readNewestFirstCursor, NEWEST_FIRST_CURSOR_MAX_LENGTH, cursor)
  cursor?: NewestFirstCursor;

  @IsOptional()
  @IsIn(ACTIVITY_ACTIONS, { message: activityAction })
  @ApiPropertyOptional({ enum: ACTIVITY_ACTIONS, description: 'Only events of this action' })
  action?: ActivityAction;

  @IsOptional()
  @IsIn(ACTOR_TYPES, { message: activityActorType })
  @ApiPropertyOptional({ enum: ACTOR_TYPES, description: 'Only events whose actor is of this type' })
  actorType?: ActorType;

  @IsOptional()
  @MaxLength(100, { message: activityActorId })
  @IsString({ message: activityActorId })
  @ApiPropertyOptional({ type: String, maxLength: 100, description: "Only events of this actor (a key's id for a key)" })
  actorId?: string;

  @IsOptional()
  @MaxLength(ISO_INSTANT_MAX_LENGTH, { message: activityFrom })
  @IsISO8601({ strict: true }, { message: activityFrom })
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    maxLength: ISO_INSTANT_MAX_LENGTH,
    description: 'Only events that occurred at or after this time',
  })
  from?: string;

  @IsOptional()
  @MaxLength(ISO_INSTANT_MAX_LENGTH, { message: activityTo })
  @IsISO8601({ strict: true }, { message: activityTo })
  @ApiPropertyOptional({ type: String, format: 'date-time', maxLength: ISO_INSTANT_MAX_LENGTH, description: 'Only events that occurred before this time' })
  to?: string;
}

/** A validated time as an instant: a date alone is midnight UTC. */
const instant = (text: string | undefined): string | null => (text === undefined ? null : new Date(text).toISOString());

export function activityFilters(query: ActivityQuery): ActivityFilters {
  return {
    action: query.action ?? null,
    actorType: query.actorType ?? null,
    actorId: query.actorId ?? null,
    from: instant(query.from),
    to: instant(query.to),
  };
}

export class ActivityActorDto {
  @ApiProperty({ enum: ACTOR_TYPES, example: 'key', description: 'key: an API key or a console session signed in with it; operator: the admin command' })
  type!: ActorType;

  @ApiProperty({ type: String, nullable: true, example: '5c1e…', description: "The key's id for a key; null for the operator" })
  id!: string | null;
}

export class ActivityTargetDto {
  @ApiProperty({ example: 'key', description: 'key, webhook, watchlist or account' })
  type!: string;

  @ApiProperty({ example: '9a7f…', description: 'The id of the key, webhook endpoint or user' })
  id!: string;
}

export class ActivityEventDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'date-time' })
  occurredAt!: string;

  @ApiProperty({ type: ActivityActorDto })
  actor!: ActivityActorDto;

  @ApiProperty({ enum: ACTIVITY_ACTIONS, example: 'key.created' })
  action!: ActivityAction;

  @ApiProperty({ type: ActivityTargetDto })
  target!: ActivityTargetDto;

  @ApiProperty({ type: String, nullable: true, example: '203.0.113.9', description: 'The address the change came from; null for the operator' })
  clientAddress!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'curl/8.5.0', description: 'Its User-Agent, at most 256 characters; null without one' })
  userAgent!: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'object', properties: { old: {}, new: {} } },
    example: { role: { old: null, new: 'viewer' } },
    description: 'Each changed field with its old and new value; never a secret',
  })
  changes!: Record<string, { old: unknown; new: unknown }>;

  @ApiProperty({ pattern: '^[0-9a-f]{64}$', description: "SHA-256 over previousHash and the event's canonical JSON" })
  hash!: string;

  @ApiProperty({ pattern: '^[0-9a-f]{64}$', description: "The hash of the account's event before this one (64 zeros for its first)" })
  previousHash!: string;
}

export class ActivityListDto {
  @ApiProperty({ type: [ActivityEventDto], description: 'Newest first' })
  events!: ActivityEventDto[];

  @ApiProperty({ type: String, nullable: true, example: null, description: 'Pass as cursor for the next page; null on the last' })
  nextCursor!: string | null;
}
