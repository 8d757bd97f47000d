import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { ActivityOrigin } from '../activity/activity-log';
import { KeyOrigin } from '../auth/activity-origin';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { AuthenticatedUser, CurrentUser } from '../auth/authenticated-user';
import { ApiError } from '../errors/api-error';
import { FEATURE_VALIDATION_MESSAGES, VALIDATION_MESSAGES } from '../errors/error-codes';
import { ApiErrorResponses, ApiErrorResponsesWith } from '../http/api-error-responses';
import { ResourceIdPipe } from '../validation/resource-id.pipe';
import { dtoValidationTexts } from '../validation/validation-texts';
import {
  CreatedWebhookDto,
  CreateWebhookDto,
  DeliveryDto,
  DeliveryListDto,
  RotatedSecretDto,
  UpdateWebhookDto,
  WebhookDto,
  WebhookListDto,
} from './dto/webhook.dto';
import { EndpointsService } from './endpoints.service';
import { WebhookUrlCheck } from './webhook-url-check';
import { Requires } from '../auth/requires';
import { UUID_SCHEMA } from '../validation/uuid';

// The VALIDATION_ERROR texts POST and PATCH really send, for the document's examples: the body's, the DTO's, the service's.
const { notJson, invalidJson } = VALIDATION_MESSAGES;
const CREATE_TEXTS = { notJson, invalidJson, ...dtoValidationTexts(CreateWebhookDto), webhookLimit: FEATURE_VALIDATION_MESSAGES.webhookLimit };
const UPDATE_TEXTS = { notJson, invalidJson, ...dtoValidationTexts(UpdateWebhookDto) };

const WEBHOOK_ID = new ResourceIdPipe('WEBHOOK_NOT_FOUND');
const ID_PARAM = { name: 'id', description: 'The endpoint id from POST /v1/webhooks', schema: UUID_SCHEMA };

@ApiTags('monitoring')
@Controller('v1/webhooks')
@UseGuards(ApiKeyGuard)
@Requires('integrate')
export class WebhooksController {
  constructor(
    private readonly endpoints: EndpointsService,
    private readonly urlCheck: WebhookUrlCheck,
  ) {}

  @Post()
  @ApiOperation({
    operationId: 'createWebhook',
    summary: 'Add a webhook endpoint (at most 10 per user)',
    description:
      'Events are POSTed as Standard Webhooks: body {"type","timestamp","data","mode"}, headers webhook-id (the event id, the ' +
      'same on every retry), webhook-timestamp (Unix seconds) and webhook-signature ("v1,<signature>", two separated ' +
      'by a space while a rotated secret still signs). To verify a delivery, on the raw body: signature = base64 of ' +
      'HMAC-SHA256, keyed with the base64-decoded part of the secret after "whsec_", of "<webhook-id>.<webhook-timestamp>.<body>"; ' +
      'compare it in constant time with each v1 entry, and refuse timestamps more than 5 minutes from your clock ' +
      '(any Standard Webhooks library does this). The answer holds the signing secret, shown only once.',
  })
  @ApiBody({ type: CreateWebhookDto, description: 'The endpoint and the event types it wants' })
  @ApiResponse({ status: 201, type: CreatedWebhookDto, description: 'Added; the answer holds the signing secret, shown only once' })
  @ApiErrorResponsesWith(CREATE_TEXTS, 'VALIDATION_ERROR', 'UNAUTHORIZED', 'INTERNAL_ERROR')
  async create(
    @CurrentUser() user: AuthenticatedUser,
    @KeyOrigin() origin: ActivityOrigin,
    @Body() webhook: CreateWebhookDto,
  ): Promise<CreatedWebhookDto> {
    await this.requireAllowedUrl(webhook.url);
    return this.endpoints.create(origin, user, webhook);
  }

  @Get()
  @ApiOperation({
    operationId: 'listWebhooks',
    summary: "The caller's webhook endpoints, with whether each is still enabled",
    description: 'Oldest first. An endpoint is disabled after a 410 answer or 3 days of failed deliveries; add it again to resume.',
  })
  @ApiOkResponse({ type: WebhookListDto, description: "The caller's endpoints, without their secrets" })
  @ApiErrorResponses('UNAUTHORIZED', 'INTERNAL_ERROR')
  async list(@CurrentUser() user: AuthenticatedUser): Promise<WebhookListDto> {
    return { webhooks: await this.endpoints.list(user) };
  }

  @Patch(':id')
  @ApiOperation({
    operationId: 'updateWebhook',
    summary: "Change a webhook endpoint's URL, its event types or both",
    description:
      'What the body leaves out stays. A new URL passes the same checks as when an endpoint is added. The secret, the ' +
      'delivery log and whether the endpoint is enabled stay as they are (a disabled endpoint stays disabled: add it again ' +
      'to resume); deliveries not yet made, retries included, go to the new URL.',
  })
  @ApiParam(ID_PARAM)
  @ApiBody({ type: UpdateWebhookDto, description: 'The new URL, the new event types, or both' })
  @ApiOkResponse({ type: WebhookDto, description: 'The endpoint as changed, without its secret' })
  @ApiErrorResponsesWith(UPDATE_TEXTS, 'VALIDATION_ERROR', 'UNAUTHORIZED', 'WEBHOOK_NOT_FOUND', 'INTERNAL_ERROR')
  async update(
    @CurrentUser() user: AuthenticatedUser,
    @KeyOrigin() origin: ActivityOrigin,
    @Param('id', WEBHOOK_ID) id: string,
    @Body() change: UpdateWebhookDto,
  ): Promise<WebhookDto> {
    if (change.url !== undefined) await this.requireAllowedUrl(change.url);
    return this.endpoints.update(origin, user, id, change);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteWebhook',
    summary: 'Remove a webhook endpoint and its delivery log',
    description: 'Its deliveries and their attempts go with it; the events stay in the events feed.',
  })
  @ApiParam(ID_PARAM)
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiErrorResponses('UNAUTHORIZED', 'WEBHOOK_NOT_FOUND', 'INTERNAL_ERROR')
  async remove(@CurrentUser() user: AuthenticatedUser, @KeyOrigin() origin: ActivityOrigin, @Param('id', WEBHOOK_ID) id: string): Promise<void> {
    await this.endpoints.remove(origin, user.userId, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rotateWebhookSecret',
    summary: 'Replace the signing secret; both secrets sign for 24 hours',
    description: 'Each delivery carries both signatures until the previous secret expires, so receivers can switch without losing one.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: RotatedSecretDto, description: 'The new secret, shown only in this answer' })
  @ApiErrorResponses('UNAUTHORIZED', 'WEBHOOK_NOT_FOUND', 'INTERNAL_ERROR')
  rotateSecret(
    @CurrentUser() user: AuthenticatedUser,
    @KeyOrigin() origin: ActivityOrigin,
    @Param('id', WEBHOOK_ID) id: string,
  ): Promise<RotatedSecretDto> {
    return this.endpoints.rotateSecret(origin, user.userId, id);
  }

  @Post(':id/test')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'pingWebhook',
    summary: 'Send a ping event to this endpoint',
    description:
      'Answers with the queued delivery; watch it in the delivery log. One manual send (a ping or a replay) per endpoint ' +
      'per 10 seconds; another is 429 with Retry-After.',
  })
  @ApiParam(ID_PARAM)
  @ApiResponse({ status: 202, type: DeliveryDto, description: 'The ping is queued for delivery' })
  @ApiErrorResponses('UNAUTHORIZED', 'WEBHOOK_NOT_FOUND', 'RATE_LIMITED', 'INTERNAL_ERROR')
  test(@CurrentUser() user: AuthenticatedUser, @Param('id', WEBHOOK_ID) id: string): Promise<DeliveryDto> {
    return this.endpoints.test(user.userId, id);
  }

  @Get(':id/deliveries')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: 'The delivery log: each event sent, with every attempt, its answer, duration and the next attempt',
    description: 'The 100 newest deliveries of the endpoint; failed ones can be sent again with the retry route.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: DeliveryListDto, description: 'The newest deliveries, each with its attempts' })
  @ApiErrorResponses('UNAUTHORIZED', 'WEBHOOK_NOT_FOUND', 'INTERNAL_ERROR')
  async deliveries(@CurrentUser() user: AuthenticatedUser, @Param('id', WEBHOOK_ID) id: string): Promise<DeliveryListDto> {
    return { deliveries: await this.endpoints.deliveries(user.userId, id) };
  }

  @Post(':id/deliveries/:deliveryId/retry')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'retryDelivery',
    summary: 'Send a delivery again (same event, same webhook-id), with a fresh retry schedule',
    description:
      'For a delivery that FAILED or that the receiver lost; receivers drop a webhook-id they have already seen. One manual ' +
      'send (a ping or a replay) per endpoint per 10 seconds; another is 429 with Retry-After.',
  })
  @ApiParam(ID_PARAM)
  @ApiParam({ name: 'deliveryId', description: 'The delivery id from the delivery log', schema: UUID_SCHEMA })
  @ApiResponse({ status: 202, type: DeliveryDto, description: 'The delivery is queued again' })
  @ApiErrorResponses('UNAUTHORIZED', 'WEBHOOK_NOT_FOUND', 'DELIVERY_NOT_FOUND', 'RATE_LIMITED', 'INTERNAL_ERROR')
  retry(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', WEBHOOK_ID) id: string,
    @Param('deliveryId', new ResourceIdPipe('DELIVERY_NOT_FOUND')) deliveryId: string,
  ): Promise<DeliveryDto> {
    return this.endpoints.retry(user.userId, id, deliveryId);
  }

  /** The URL as written and its host's addresses now; the host is resolved again at every delivery. */
  private async requireAllowedUrl(url: string): Promise<void> {
    if ((await this.urlCheck.problem(url)) !== null) throw ApiError.validation(FEATURE_VALIDATION_MESSAGES.webhookUrl);
  }
}
