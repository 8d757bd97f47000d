import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiError } from '../errors/api-error';
import { FEATURE_VALIDATION_MESSAGES, VALIDATION_MESSAGES } from '../errors/error-codes';
import { ApiErrorResponses, ApiErrorResponsesWith } from '../http/api-error-responses';
import { ResourceIdPipe } from '../validation/resource-id.pipe';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysService, KeyLimitError } from './api-keys.service';
import { AuthenticatedUser, CurrentUser } from './authenticated-user';
import { CreatedKeyDto, CreateKeyDto, KeyListDto } from './dto/keys.dto';

// The VALIDATION_ERROR texts POST /v1/keys really sends, for the document's examples.
const CREATE_TEXTS = {
  notJson: VALIDATION_MESSAGES.notJson,
  invalidJson: VALIDATION_MESSAGES.invalidJson,
  keyBody: FEATURE_VALIDATION_MESSAGES.keyBody,
  keyLimit: FEATURE_VALIDATION_MESSAGES.keyLimit,
};

@ApiTags('keys')
@Controller('v1/keys')
@UseGuards(ApiKeyGuard)
export class KeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @ApiOperation({
    operationId: 'listKeys',
    summary: "The caller's user's API keys that are not revoked",
    description: 'Never the keys themselves: each key is shown once, when it is created. lastUsedAt is accurate to the minute.',
  })
  @ApiOkResponse({ type: KeyListDto, description: "The user's keys, oldest first" })
  @ApiErrorResponses('UNAUTHORIZED', 'INTERNAL_ERROR')
  async list(@CurrentUser() user: AuthenticatedUser): Promise<KeyListDto> {
    const keys = await this.keys.userKeys(user.userId);
    return { keys: keys.map((key) => ({ ...key, current: key.id === user.keyId })) };
  }

  @Post()
  @ApiOperation({
    operationId: 'createKey',
    summary: 'Issue another API key to the caller\'s user',
    description: 'The new key shares the user\'s quota and data. A user holds at most 10 keys that are neither revoked nor expired.',
  })
  @ApiBody({ type: CreateKeyDto })
  @ApiResponse({ status: 201, type: CreatedKeyDto, description: 'Issued; the answer holds the key, shown only once' })
  @ApiErrorResponsesWith(CREATE_TEXTS, 'VALIDATION_ERROR', 'UNAUTHORIZED', 'INTERNAL_ERROR')
  async create(@CurrentUser() user: AuthenticatedUser, @Body() body: CreateKeyDto): Promise<CreatedKeyDto> {
    try {
      return { ...(await this.keys.createUserKey(user.userId, body.name)), current: false };
    } catch (error) {
      if (error instanceof KeyLimitError) throw ApiError.validation(FEATURE_VALIDATION_MESSAGES.keyLimit);
      throw error;
    }
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'revokeKey',
    summary: 'Revoke one of the user\'s keys',
    description: 'Refused at once by every API process, the key of this very request included.',
  })
  @ApiParam({ name: 'id', description: 'The key id from GET /v1/keys', schema: { type: 'string', format: 'uuid' } })
  @ApiNoContentResponse({ description: 'Revoked' })
  @ApiErrorResponses('UNAUTHORIZED', 'KEY_NOT_FOUND', 'INTERNAL_ERROR')
  async revoke(@CurrentUser() user: AuthenticatedUser, @Param('id', new ResourceIdPipe('KEY_NOT_FOUND')) id: string): Promise<void> {
    if (!(await this.keys.revokeUserKey(user.userId, id))) throw new ApiError('KEY_NOT_FOUND');
  }
}
