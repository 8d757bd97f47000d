/** The contract's error table (interface section 7): each code with its HTTP status and fixed message. */
export const ERROR_CODES = {
  VALIDATION_ERROR: { status: 400, message: 'Invalid request' },
  UNAUTHORIZED: { status: 401, message: 'Invalid or missing API key' },
  ROUTE_NOT_FOUND: { status: 404, message: 'Route not found' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request did not arrive in time' },
  QUOTA_EXCEEDED: {
    status: 429,
    message: 'Monthly verification quota exceeded; upgrade the plan to continue',
  },
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

/** Fixed texts of VALIDATION_ERROR, one per kind of bad request; never echo the caller's input. */
export const VALIDATION_MESSAGES = {
  licenceNumber: 'Licence number must be 16 digits',
  notJson: 'Request body must be a JSON object',
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

export type ValidationMessage = (typeof VALIDATION_MESSAGES)[keyof typeof VALIDATION_MESSAGES];
