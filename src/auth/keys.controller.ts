import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { ActivityOrigin } from '../activity/activity-log';
import { ApiError } from '../errors/api-error';
import { FEATURE_VALIDATION_MESSAGES, VALIDATION_MESSAGES } from '../errors/error-codes';
import { ApiErrorResponses, ApiErrorResponsesWith } from '../http/api-error-responses';
import { ResourceIdPipe } from '../validation/resource-id.pipe';
import { dtoValidationTexts } from '../validation/validation-texts';
import { KeyOrigin } from './activity-origin';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysService, KeyLimitError, PastExpiryError } from './api-keys.service';
import { AuthenticatedUser, callingKey, CurrentUser } from './authenticated-user';
import { issuedKeyMode } from './key-mode';
import { mayIssueRole } from './key-role';
import { CreatedKeyDto, CreateKeyDto, KeyListDto } from './dto/keys.dto';
import { Requires } from './requires';
import { UUID_SCHEMA } from '../validation/uuid';

// The VALIDATION_ERROR texts POST /v1/keys really sends, for the document's examples: the body's, the DTO's, the
// controller's (a test key asking for a live one) and the service's.
const { notJson, invalidJson } = VALIDATION_MESSAGES;
const { keyModeLive, keyLimit } = FEATURE_VALIDATION_MESSAGES;
const CREATE_TEXTS = { notJson, invalidJson, ...dtoValidationTexts(CreateKeyDto), keyModeLive, keyLimit };

@ApiTags('keys')
@Controller('v1/keys')
@UseGuards(ApiKeyGuard)
@Requires('integrate')
export class KeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @ApiOperation({
    operationId: 'listKeys',
    summary: "The caller's user's API keys that are not revoked",
    description:
      'Never the keys themselves: each key is shown once, when it is created. lastUsedAt is accurate to the minute. ' +
      'A live key lists the keys of both modes; a test key only the test keys.',
  })
  @ApiOkResponse({ type: KeyListDto, description: "The user's keys, oldest first" })
  @ApiErrorResponses('UNAUTHORIZED', 'INTERNAL_ERROR')
  async list(@CurrentUser() user: AuthenticatedUser): Promise<KeyListDto> {
    const keys = await this.keys.userKeys(user.userId, callingKey(user));
    return { keys: keys.map((key) => ({ ...key, current: key.id === user.keyId })) };
  }

  @Post()
  @ApiOperation({
    operationId: 'createKey',
    summary: "Issue another API key to the caller's user",
    description:
      "The new key shares the user's quota and data (a test key: the test side's), and expires no later than the key " +
      'making the request. Each side of a user holds at most 10 keys that are neither revoked nor expired. Its role is ' +
      "the calling key's or a lesser one: a key never issues more rights than it holds.",
  })
  @ApiBody({ type: CreateKeyDto })
  @ApiResponse({ status: 201, type: CreatedKeyDto, description: 'Issued; the answer holds the key, shown only once' })
  @ApiErrorResponsesWith(CREATE_TEXTS, 'VALIDATION_ERROR', 'UNAUTHORIZED', 'INTERNAL_ERROR')
  async create(@CurrentUser() user: AuthenticatedUser, @KeyOrigin() origin: ActivityOrigin, @Body() body: CreateKeyDto): Promise<CreatedKeyDto> {
    const mode = issuedKeyMode(user.mode, body.mode);
    if (mode === null) throw ApiError.validation(FEATURE_VALIDATION_MESSAGES.keyModeLive);
    const role = body.role ?? user.role;
    if (!mayIssueRole(user.role, role)) throw new ApiError('FORBIDDEN');
    try {
      const request = { name: body.name, expiresAt: body.expiresAt ?? null, mode, role };
      const created = await this.keys.createUserKey(origin, user.userId, callingKey(user), request);
      return { ...created, current: false };
    } catch (error) {
      if (error instanceof KeyLimitError) throw ApiError.validation(FEATURE_VALIDATION_MESSAGES.keyLimit);
      if (error instanceof PastExpiryError) throw ApiError.validation(FEATURE_VALIDATION_MESSAGES.keyExpiry);
      throw error;
    }
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'revokeKey',
    summary: 'Revoke the key of this request, or a key it issued',
    description:
      "A key may revoke itself and the keys it issued, directly or through the keys they issued (a live key's test keys " +
      'included); a key the operator issued may also revoke a key whose issuer is revoked. Revoking a key revokes every ' +
      "key descended from it. Its issuer, other keys the operator issued, other users' keys and, to a test key, live " +
      'keys answer 404, as unknown ids do. Refused at once by every API process, the key of this very request included.',
  })
  @ApiParam({ name: 'id', description: 'The key id from GET /v1/keys', schema: UUID_SCHEMA })
  @ApiNoContentResponse({ description: 'Revoked' })
  @ApiErrorResponses('UNAUTHORIZED', 'KEY_NOT_FOUND', 'INTERNAL_ERROR')
  async revoke(
    @CurrentUser() user: AuthenticatedUser,
    @KeyOrigin() origin: ActivityOrigin,
    @Param('id', new ResourceIdPipe('KEY_NOT_FOUND')) id: string,
  ): Promise<void> {
    if (!(await this.keys.revokeUserKey(origin, user.userId, callingKey(user), id))) throw new ApiError('KEY_NOT_FOUND');
  }
}
