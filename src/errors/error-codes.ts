/** The contract's error table (interface section 7): each code with its HTTP status and fixed message. */
export const ERROR_CODES = {
  VALIDATION_ERROR: { status: 400, message: 'Invalid request' },
  UNAUTHORIZED: { status: 401, message: 'Invalid or missing API key' },
  ROUTE_NOT_FOUND: { status: 404, message: 'Route not found' },
  QUOTA_EXCEEDED: {
    status: 429,
    message: 'Monthly verification quota exceeded; upgrade the plan to continue',
  },
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
  unknownField: 'Request body may only contain licenceNumber',
  idempotencyKey: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
  idempotencyKeyReused: 'Idempotency-Key was already used with a different licence number',
} as const;

export type ValidationMessage = (typeof VALIDATION_MESSAGES)[keyof typeof VALIDATION_MESSAGES];
