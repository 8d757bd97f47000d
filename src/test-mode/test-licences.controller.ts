import { Body, Controller, Delete, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { AuthenticatedUser, CurrentUser } from '../auth/authenticated-user';
import { FEATURE_VALIDATION_MESSAGES, VALIDATION_MESSAGES } from '../errors/error-codes';
import { ApiErrorResponsesWith } from '../http/api-error-responses';
import { SimulateChangeDto, TestLicenceDto, TestLicenceParams } from './dto/simulate-change.dto';
import { TestKeyGuard } from './test-key.guard';
import { TestLicencesService, TestLicenceView } from './test-licences.service';
import { Requires } from '../auth/requires';

// The VALIDATION_ERROR texts each route really sends, for the document's examples.
const { licenceNumber, notJson, invalidJson } = VALIDATION_MESSAGES;
const CHANGE_TEXTS = { licenceNumber, notJson, invalidJson, simulateBody: FEATURE_VALIDATION_MESSAGES.simulateBody };

/** Test mode's simulated licence changes, for test keys only (docs/api.md, Test mode). */
@ApiTags('test')
@Controller('v1/test/licences')
@UseGuards(ApiKeyGuard, TestKeyGuard)
@Requires('check')
export class TestLicencesController {
  constructor(private readonly licences: TestLicencesService) {}

  @Post(':licenceNumber')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'simulateLicenceChange',
    summary: "Change a licence in the caller's test register",
    description:
      'Test keys only. Changes the licence for the calling test user alone, creating a number the test register does not know ' +
      '(Active, TEST HOLDER, born 1990-01-01, expiring a year ahead) and a successorLicenceNumber (Active, the same holder). The ' +
      "next verification answers the change, and the user's watched numbers are re-checked at once, so that the usual " +
      'events follow within seconds. Free: no quota is charged.',
  })
  @ApiBody({ type: SimulateChangeDto, required: false })
  @ApiOkResponse({ type: TestLicenceDto, description: 'The licence as it now stands' })
  @ApiErrorResponsesWith(
    CHANGE_TEXTS,
    'VALIDATION_ERROR',
    'UNAUTHORIZED',
    'FORBIDDEN',
    'TEST_MODE_ONLY',
    'RATE_LIMITED',
    'INTERNAL_ERROR',
    'SERVICE_UNAVAILABLE',
  )
  change(
    @CurrentUser() user: AuthenticatedUser,
    @Param() { licenceNumber }: TestLicenceParams,
    @Body() change: SimulateChangeDto,
  ): Promise<TestLicenceView> {
    return this.licences.change(user.userId, licenceNumber, change);
  }

  @Delete(':licenceNumber')
  @ApiOperation({
    operationId: 'restoreLicence',
    summary: "Undo the caller's change of a test licence",
    description:
      "Test keys only. The number answers again as the test register's own data says (a created number: NOT_FOUND), with the " +
      'events that the change back makes for watched numbers. Restoring a number never changed answers the same.',
  })
  @ApiOkResponse({ type: TestLicenceDto, description: 'What the number now answers' })
  @ApiErrorResponsesWith(
    { licenceNumber },
    'VALIDATION_ERROR',
    'UNAUTHORIZED',
    'FORBIDDEN',
    'TEST_MODE_ONLY',
    'RATE_LIMITED',
    'INTERNAL_ERROR',
    'SERVICE_UNAVAILABLE',
  )
  restore(@CurrentUser() user: AuthenticatedUser, @Param() { licenceNumber }: TestLicenceParams): Promise<TestLicenceView> {
    return this.licences.restore(user.userId, licenceNumber);
  }
}
