import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ANSWER_HEADERS, RETRY_AFTER_HEADER } from '../verification/verification-answers.decorator';
import { EXAMPLE_VERIFICATION_ID, exampleLicence, exampleVerificationAnswer } from '../verification/dto/verification-result.dto';
import { VerificationStatus } from '../verification/outcome-status';
import {
  HolderFoundDto,
  HolderNotFoundDto,
  HolderPendingDto,
  HolderTooManyResultsDto,
  SearchFoundDto,
  SearchNotFoundDto,
  SearchPendingDto,
} from './dto/holder-answers.dto';
import { holderCheckAnswer, searchAnswer } from './holder-answers';
import type { HolderCheck } from './holder-check';

const EXAMPLE_CHECKED_AT = '2026-11-22T10:15:00.000Z';

/** verify's example answer for a status, with a holder check; built by the mapping the controller uses. */
function holderExample(status: VerificationStatus, check: HolderCheck | null) {
  const { body } = exampleVerificationAnswer(status);
  const result = status === 'PENDING' ? 'PENDING' : { status, licence: body.licence, checkedAt: EXAMPLE_CHECKED_AT };
  return holderCheckAnswer(result, check, EXAMPLE_VERIFICATION_ID);
}

/** The answers of POST /v1/licences/verify-holder: verify's, each with holderCheck. */
export function ApiHolderCheckAnswers(): MethodDecorator & ClassDecorator {
  const found = (check: HolderCheck) => holderExample('FOUND', check).body;
  return applyDecorators(
    ApiResponse({
      status: 200,
      description: 'FOUND: the licence, and how the claimed holder compares with it',
      type: HolderFoundDto,
      headers: ANSWER_HEADERS,
      examples: {
        confirmed: { summary: 'Name and date of birth confirmed', value: found({ name: 'MATCH', dateOfBirth: 'CONFIRMED' }) },
        initial: { summary: 'An initial; no date given', value: found({ name: 'PARTIAL', dateOfBirth: 'NOT_CHECKED' }) },
        borrowed: { summary: "Someone else's licence", value: found({ name: 'MISMATCH', dateOfBirth: 'NOT_CONFIRMED' }) },
        tooBroad: { summary: 'The name search was too broad to confirm the date', value: found({ name: 'MATCH', dateOfBirth: 'UNDETERMINED' }) },
      },
    }),
    ApiResponse({
      status: 202,
      description: 'PENDING: the register has not answered in time; retry the same request with the same Idempotency-Key',
      type: HolderPendingDto,
      headers: { ...ANSWER_HEADERS, ...RETRY_AFTER_HEADER },
      example: holderExample('PENDING', null).body,
    }),
    ApiResponse({
      status: 404,
      description: 'NOT_FOUND: no licence has the number (a result, not an error)',
      type: HolderNotFoundDto,
      headers: ANSWER_HEADERS,
      example: holderExample('NOT_FOUND', null).body,
    }),
    ApiResponse({
      status: 409,
      description: 'TOO_MANY_RESULTS: several licences match the number (a result, not an error)',
      type: HolderTooManyResultsDto,
      headers: ANSWER_HEADERS,
      example: holderExample('TOO_MANY_RESULTS', null).body,
    }),
  );
}

const SEARCH_HEADERS = { 'Idempotency-Key': ANSWER_HEADERS['Idempotency-Key'] };

/** The answers of POST /v1/licences/search that are results; 409 TOO_MANY_RESULTS is an error, documented with them. */
export function ApiSearchAnswers(): MethodDecorator & ClassDecorator {
  const renewed = exampleLicence();
  const expired = { ...renewed, licenceNumber: '1011001544208001', expiryDate: '2024-06-06', status: 'Expired' };
  return applyDecorators(
    ApiResponse({
      status: 200,
      description: 'FOUND: every licence the register lists for the search',
      type: SearchFoundDto,
      headers: SEARCH_HEADERS,
      example: searchAnswer({ status: 'FOUND', licences: [expired, renewed], checkedAt: EXAMPLE_CHECKED_AT }, null).body,
    }),
    ApiResponse({
      status: 202,
      description: 'PENDING: the register has not answered in time; retry the same request with the same Idempotency-Key',
      type: SearchPendingDto,
      headers: { ...SEARCH_HEADERS, ...RETRY_AFTER_HEADER },
      example: searchAnswer('PENDING', null).body,
    }),
    ApiResponse({
      status: 404,
      description: 'NOT_FOUND: no licence matches the search (a result, not an error)',
      type: SearchNotFoundDto,
      headers: SEARCH_HEADERS,
      example: searchAnswer({ status: 'NOT_FOUND', licences: [], checkedAt: EXAMPLE_CHECKED_AT }, null).body,
    }),
  );
}
