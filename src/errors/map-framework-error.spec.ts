import { VALIDATION_MESSAGES } from './error-codes';
import { mapFrameworkError } from './map-framework-error';

describe('mapFrameworkError', () => {
  describe('body too large', () => {
    it('maps status 413 to VALIDATION_ERROR with the too-large message', () => {
      expect(mapFrameworkError(413)).toEqual({ code: 'VALIDATION_ERROR', message: VALIDATION_MESSAGES.tooLarge });
    });

    it('maps FST_ERR_CTP_BODY_TOO_LARGE to VALIDATION_ERROR with the too-large message', () => {
      expect(mapFrameworkError(413, 'FST_ERR_CTP_BODY_TOO_LARGE')).toEqual({
        code: 'VALIDATION_ERROR',
        message: VALIDATION_MESSAGES.tooLarge,
      });
    });

    it('maps FST_ERR_CTP_BODY_TOO_LARGE by its code even without a status', () => {
      expect(mapFrameworkError(undefined, 'FST_ERR_CTP_BODY_TOO_LARGE')).toEqual({
        code: 'VALIDATION_ERROR',
        message: 'Request body must not exceed 16 KiB',
      });
    });

    it('maps FST_ERR_CTP_BODY_TOO_LARGE by its code even with status 500', () => {
      expect(mapFrameworkError(500, 'FST_ERR_CTP_BODY_TOO_LARGE')).toEqual({
        code: 'VALIDATION_ERROR',
        message: VALIDATION_MESSAGES.tooLarge,
      });
    });
  });

  describe('unsupported media type', () => {
    it('maps status 415 to VALIDATION_ERROR with the content-type message', () => {
      expect(mapFrameworkError(415)).toEqual({ code: 'VALIDATION_ERROR', message: VALIDATION_MESSAGES.contentType });
    });

    it('maps FST_ERR_CTP_INVALID_MEDIA_TYPE to VALIDATION_ERROR with the content-type message', () => {
      expect(mapFrameworkError(415, 'FST_ERR_CTP_INVALID_MEDIA_TYPE')).toEqual({
        code: 'VALIDATION_ERROR',
        message: 'Content-Type must be application/json',
      });
    });

    it('maps FST_ERR_CTP_INVALID_MEDIA_TYPE by its code even without a status', () => {
      expect(mapFrameworkError(undefined, 'FST_ERR_CTP_INVALID_MEDIA_TYPE')).toEqual({
        code: 'VALIDATION_ERROR',
        message: VALIDATION_MESSAGES.contentType,
      });
    });
  });

  describe('routes', () => {
    it('maps 404 to ROUTE_NOT_FOUND without a message', () => {
      expect(mapFrameworkError(404)).toEqual({ code: 'ROUTE_NOT_FOUND' });
    });

    it('maps 405 to ROUTE_NOT_FOUND without a message', () => {
      expect(mapFrameworkError(405)).toEqual({ code: 'ROUTE_NOT_FOUND' });
    });
  });

  describe('authentication', () => {
    it('maps 401 to UNAUTHORIZED without a message', () => {
      expect(mapFrameworkError(401)).toEqual({ code: 'UNAUTHORIZED' });
    });

    it('maps 403 to UNAUTHORIZED without a message', () => {
      expect(mapFrameworkError(403)).toEqual({ code: 'UNAUTHORIZED' });
    });
  });

  describe('other client errors', () => {
    it.each([400, 402, 406, 408, 409, 411, 422, 431, 499])(
      'maps %i to VALIDATION_ERROR with the not-a-JSON-object message',
      (status) => {
        expect(mapFrameworkError(status)).toEqual({ code: 'VALIDATION_ERROR', message: VALIDATION_MESSAGES.notJson });
      },
    );

    it('maps 400 with an unrecognised Fastify code to VALIDATION_ERROR with the not-a-JSON-object message', () => {
      expect(mapFrameworkError(400, 'FST_ERR_CTP_EMPTY_JSON_BODY')).toEqual({
        code: 'VALIDATION_ERROR',
        message: 'Request body must be a JSON object',
      });
    });
  });

  describe('not client errors', () => {
    it.each([500, 502, 503, 399, 302, 200, 600])('maps %i to null', (status) => {
      expect(mapFrameworkError(status)).toBeNull();
    });

    it('maps an undefined status to null', () => {
      expect(mapFrameworkError(undefined)).toBeNull();
    });

    it('maps an undefined status with an unknown Fastify code to null', () => {
      expect(mapFrameworkError(undefined, 'FST_ERR_SOMETHING_ELSE')).toBeNull();
    });
  });
});
