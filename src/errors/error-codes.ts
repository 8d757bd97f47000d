/** The contract's error table (interface section 7): each code with its HTTP status and fixed message. */
export const ERROR_CODES = {
  VALIDATION_ERROR: { status: 400, message: 'Invalid request' },
  UNAUTHORIZED: { status: 401, message: 'Invalid or missing API key' },
  FORBIDDEN: { status: 403, message: "This API key's role does not allow this operation" },
  TEST_MODE_ONLY: { status: 403, message: 'This operation needs a test key' },
  ROUTE_NOT_FOUND: { status: 404, message: 'Route not found' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request did not arrive in time' },
  BATCH_NOT_FOUND: { status: 404, message: 'Batch not found' },
  WATCH_NOT_FOUND: { status: 404, message: 'Licence number is not on the watchlist' },
  WEBHOOK_NOT_FOUND: { status: 404, message: 'Webhook endpoint not found' },
  DELIVERY_NOT_FOUND: { status: 404, message: 'Delivery not found' },
  TOO_MANY_RESULTS: { status: 409, message: 'Too many search results; refine the search' },
  WATCHLIST_FULL: { status: 409, message: 'Watchlist is full; remove entries or ask for a larger limit' },
  KEY_NOT_FOUND: { status: 404, message: 'API key not found' },
  VERIFICATION_NOT_FOUND: { status: 404, message: 'Verification record not found' },
  QUOTA_EXCEEDED: {
    status: 429,
    message: 'Monthly verification quota exceeded; upgrade the plan to continue',
  },
  RATE_LIMITED: { status: 429, message: 'Too many requests; retry after the time in Retry-After' },
  TOO_MANY_SIGN_INS: { status: 429, message: 'Too many failed sign-ins from this address; try again in a minute' },
  HEADERS_TOO_LARGE: { status: 431, message: 'Request headers are too large' },
  INTERNAL_ERROR: {
    status: 500,
    message: 'An internal error occurred while processing the request',
  },
  PARSE_ERROR: { status: 502, message: 'Upstream service returned an unexpected response' },
  SERVICE_UNAVAILABLE: {
    status: 503,
    message: 'Upstream service is temporarily unavailable; try again later',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** FORBIDDEN's other text: the console's, for a change that did not come from one of its pages (not in the API document). */
export const CONSOLE_ORIGIN_MESSAGE = 'The request did not come from a console page; reload the page and try again';

/** FORBIDDEN's texts for a refused Test mode switch in the console (not in the API document). */
export const CONSOLE_SIDE_MESSAGES = {
  'key-session': "A session signed in with a key works on its key's side; sign in with a key of the other side",
  'test-mode-off': 'Test mode is off on this service',
} as const;

/** Fixed texts of VALIDATION_ERROR, one per kind of bad request; never echo the caller's input. */
export const VALIDATION_MESSAGES = {
  licenceNumber: 'Licence number must be 16 digits',
  notJson: 'Request body must be a JSON object',
  invalidJson: 'Request body is not valid JSON',
  contentType: 'Content-Type must be application/json',
  tooLarge: 'Request body must not exceed 16 KiB',
  tooDeep: 'Request body is nested too deeply',
  unknownField: 'Request body may only contain licenceNumber',
  idempotencyKey: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
  idempotencyKeyReused: 'Idempotency-Key was already used with a different licence number',
  malformedRequest: 'Request is not valid HTTP',
  badUrl: 'Request URL is not valid',
  hostRequired: 'Host header is required',
} as const;

/** Fixed texts of VALIDATION_ERROR that only the routes beyond the verify contract send (batches, monitoring). */
export const FEATURE_VALIDATION_MESSAGES = {
  batchIdempotencyKeyReused: 'Idempotency-Key was already used with a different batch',
  batchContentType: 'Content-Type must be application/json or text/csv',
  batchTooLarge: 'Request body must not exceed 512 KiB',
  batchShape: 'Request body must have either items or licenceNumbers, as an array',
  batchSize: 'A batch must have 1 to 1000 items',
  csvEncoding: 'CSV must be encoded as UTF-8',
  csvHeader: 'CSV header must have a licenceNumber, licence_number or Licence number column',
  itemsLimit: 'limit must be an integer from 1 to 1000',
  batchesLimit: 'limit must be an integer from 1 to 100',
  cursor: 'cursor is not valid',
  batchesQuery: 'Query may only contain limit and cursor',
  watchReference: 'reference must be text of at most 100 characters',
  watchBody: 'Request body may only contain reference, holder and followSuccessor',
  watchHolder:
    'holder must be {"firstName","surname"} with an optional dateOfBirth: names of 1 to 50 letters, spaces, hyphens or apostrophes, and a real YYYY-MM-DD date',
  followSuccessor: 'followSuccessor must be true or false',
  watchlistLimit: 'limit must be an integer from 1 to 1000',
  watchStatus: 'status must be a licence status such as Active or Revoked, NOT_FOUND, TOO_MANY_RESULTS or UNCHECKED',
  expiringWithinDays: 'expiringWithinDays must be an integer from 0 to 3650',
  watchlistQuery: 'Query may only contain limit, cursor, status and expiringWithinDays',
  webhookBody: 'Request body must be {"url","events"} with an optional list of known event types',
  webhookChange: 'Request body must have url, events or both, with events a list of known event types',
  webhookUrl: 'url must be an https URL whose host is not a private, loopback, link-local or metadata address',
  webhookLimit: 'A user may have at most 10 webhook endpoints',
  eventsLimit: 'limit must be an integer from 1 to 1000',
  eventsAfter: 'after must be a cursor from a previous page',
  eventsQuery: 'Query may only contain after and limit',
  holderBody: 'Request body may only contain licenceNumber, firstName, surname and dateOfBirth',
  searchBody: 'Request body may only contain surname, firstName, middleName, dateOfBirth, role and licenceSector',
  simulateBody:
    'Request body may only contain status (1 to 40 letters and spaces), statusReason (at most 200 characters, or null), expiryDate (a real YYYY-MM-DD date) and successorLicenceNumber (16 digits, not the licence itself)',
  surname: 'surname must be 1 to 50 letters, spaces, hyphens or apostrophes',
  firstName: 'firstName must be 1 to 50 letters, spaces, hyphens or apostrophes',
  middleName: 'middleName must be 1 to 50 letters, spaces, hyphens or apostrophes',
  role: 'role must be 1 to 50 letters, spaces, hyphens or apostrophes',
  licenceSector: 'licenceSector must be 1 to 50 letters, spaces, hyphens, apostrophes or brackets',
  dateOfBirth: 'dateOfBirth must be a real date written YYYY-MM-DD',
  historyMonths: 'months must be an integer from 1 to 24',
  historyQuery: 'Query may only contain months',
  keyBody: 'Request body must be {"name"} with a name of 1 to 100 characters, and may add expiresAt',
  keyExpiry: 'expiresAt must be a future ISO-8601 date, or date and time with its zone',
  keyLimit: 'A user may hold at most 10 active keys; revoke one first',
  keyMode: 'mode must be live or test',
  keyRole: 'role must be admin, developer, compliance or viewer',
  keyModeLive: 'A test key may create only test keys',
  formContentType: 'Content-Type must be application/x-www-form-urlencoded',
  consoleForm: 'Form may only contain the fields of its console page',
  verificationsLimit: 'limit must be an integer from 1 to 1000',
  verificationsLicenceNumber: 'licenceNumber must be 16 digits',
  verificationsFrom: 'from must be a date-time such as 2026-11-01T00:00:00Z',
  verificationsTo: 'to must be a date-time such as 2026-12-01T00:00:00Z',
  verificationsStatus: 'status must be FOUND, NOT_FOUND or TOO_MANY_RESULTS',
  verificationsChannel: 'channel must be api, console or batch',
  verificationsMember: 'memberId must be a member id (UUID)',
  verificationsQuery: 'Query may only contain limit, cursor, licenceNumber, from, to, status, channel and memberId',
  exportQuery: 'Query may only contain from and to',
  activityLimit: 'limit must be an integer from 1 to 1000',
  activityAction: 'action must be one of the activity log actions, such as key.created',
  activityActorType: 'actorType must be member, key, operator, cli or system',
  activityActorId: 'actorId must be text of at most 100 characters',
  activityFrom: 'from must be a date-time such as 2026-11-01T00:00:00Z',
  activityTo: 'to must be a date-time such as 2026-12-01T00:00:00Z',
  activityQuery: 'Query may only contain limit, cursor, action, actorType, actorId, from and to',
} as const;

export type ValidationMessage =
  (typeof VALIDATION_MESSAGES)[keyof typeof VALIDATION_MESSAGES] | (typeof FEATURE_VALIDATION_MESSAGES)[keyof typeof FEATURE_VALIDATION_MESSAGES];

/** Fixed texts for one bad row of a batch; the row's number is put before them. */
export const ROW_MESSAGES = {
  licenceNumber: 'licence number must be 16 digits',
  reference: 'reference must be text of at most 100 characters',
  item: 'item must be an object with licenceNumber and an optional reference',
  csvRecord: 'CSV could not be read (check quotes and separators)',
  holderName: 'firstName and surname must come together, each 1 to 50 letters, spaces, hyphens or apostrophes',
  dateOfBirth: 'dateOfBirth must be a real date written YYYY-MM-DD, with firstName and surname',
} as const;

export type RowProblem = keyof typeof ROW_MESSAGES;

/** "Row 17: licence number must be 16 digits" */
export function rowMessage(row: number, problem: RowProblem): string {
  return `Row ${row}: ${ROW_MESSAGES[problem]}`;
}

/** QUOTA_EXCEEDED for a batch says what it needs and what is left, so the caller can split it. */
export function batchQuotaMessage(needed: number, remaining: number): string {
  return `${ERROR_CODES.QUOTA_EXCEEDED.message}: the batch needs ${needed} new licence numbers, ${remaining} remain`;
}
