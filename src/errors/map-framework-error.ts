import { ErrorCode, VALIDATION_MESSAGES } from './error-codes';

interface ContractError {
  code: ErrorCode;
  message?: string;
}

/**
 * Maps an error raised by Nest or Fastify (not by our code) to the closest contract code.
 * Returns null when the error is not a recognised client error, which makes it a 500.
 */
export function mapFrameworkError(status: number | undefined, fastifyCode?: string): ContractError | null {
  if (fastifyCode === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) {
    return { code: 'VALIDATION_ERROR', message: VALIDATION_MESSAGES.tooLarge };
  }
  if (fastifyCode === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) {
    return { code: 'VALIDATION_ERROR', message: VALIDATION_MESSAGES.contentType };
  }
  if (status === 404 || status === 405) return { code: 'ROUTE_NOT_FOUND' };
  if (status === 401 || status === 403) return { code: 'UNAUTHORIZED' };
  if (status !== undefined && status >= 400 && status < 500) {
    return { code: 'VALIDATION_ERROR', message: VALIDATION_MESSAGES.notJson };
  }
  return null;
}
