import { VALIDATION_MESSAGES } from './error-codes';
import { dependencyUnavailableCode, isClientAbort, mapClientError, mapFrameworkError, toErrorAnswer } from './map-framework-error';

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
    it.each([400, 402, 406, 408, 409, 411, 422, 431, 499])('maps %i to VALIDATION_ERROR with the not-a-JSON-object message', (status) => {
      expect(mapFrameworkError(status)).toEqual({ code: 'VALIDATION_ERROR', message: VALIDATION_MESSAGES.notJson });
    });

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

  describe('bad URL', () => {
    it('maps FST_ERR_BAD_URL to VALIDATION_ERROR with the bad-URL message, never the path', () => {
      expect(mapFrameworkError(400, 'FST_ERR_BAD_URL')).toEqual({
        code: 'VALIDATION_ERROR',
        message: 'Request URL is not valid',
      });
    });

    it('maps FST_ERR_BAD_URL by its code even without a status', () => {
      expect(mapFrameworkError(undefined, 'FST_ERR_BAD_URL')).toEqual({
        code: 'VALIDATION_ERROR',
        message: VALIDATION_MESSAGES.badUrl,
      });
    });
  });
});

describe('mapClientError', () => {
  it('maps a request that did not arrive in time to REQUEST_TIMEOUT', () => {
    expect(mapClientError('ERR_HTTP_REQUEST_TIMEOUT')).toEqual({ code: 'REQUEST_TIMEOUT' });
  });

  it('maps a header block over the limit to HEADERS_TOO_LARGE', () => {
    expect(mapClientError('HPE_HEADER_OVERFLOW')).toEqual({ code: 'HEADERS_TOO_LARGE' });
  });

  it.each([
    'HPE_INVALID_METHOD',
    'HPE_INVALID_URL',
    'HPE_INVALID_HEADER_TOKEN',
    'HPE_INVALID_CONSTANT',
    'HPE_INVALID_VERSION',
    'HPE_UNEXPECTED_CONTENT_LENGTH',
    'HPE_INVALID_TRANSFER_ENCODING',
    'HPE_INVALID_CHUNK_SIZE',
    'SOMETHING_NEW',
  ])('maps %s to VALIDATION_ERROR with the not-valid-HTTP message', (nodeCode) => {
    expect(mapClientError(nodeCode)).toEqual({ code: 'VALIDATION_ERROR', message: 'Request is not valid HTTP' });
  });

  it('maps an error without a code to VALIDATION_ERROR with the not-valid-HTTP message', () => {
    expect(mapClientError(undefined)).toEqual({ code: 'VALIDATION_ERROR', message: VALIDATION_MESSAGES.malformedRequest });
  });

  it('maps a connection reset to null: there is nobody to answer', () => {
    expect(mapClientError('ECONNRESET')).toBeNull();
  });
});

describe('toErrorAnswer', () => {
  it("gives the code's status and fixed message when there is no specific message", () => {
    expect(toErrorAnswer({ code: 'REQUEST_TIMEOUT' })).toEqual({
      status: 408,
      body: { code: 'REQUEST_TIMEOUT', message: 'The request did not arrive in time' },
    });
  });

  it('gives the specific message of a VALIDATION_ERROR', () => {
    expect(toErrorAnswer({ code: 'VALIDATION_ERROR', message: VALIDATION_MESSAGES.tooDeep })).toEqual({
      status: 400,
      body: { code: 'VALIDATION_ERROR', message: 'Request body is nested too deeply' },
    });
  });

  it('gives 431 for HEADERS_TOO_LARGE', () => {
    expect(toErrorAnswer({ code: 'HEADERS_TOO_LARGE' })).toEqual({
      status: 431,
      body: { code: 'HEADERS_TOO_LARGE', message: 'Request headers are too large' },
    });
  });
});

describe('isClientAbort', () => {
  const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });

  it('is true for an aborted request stream whose socket is gone', () => {
    expect(isClientAbort(aborted, true)).toBe(true);
  });

  it('is true for a prematurely closed stream whose socket is gone', () => {
    expect(isClientAbort({ code: 'ERR_STREAM_PREMATURE_CLOSE' }, true)).toBe(true);
  });

  it('is false for a connection reset while the client is still connected (a reset of Redis, say)', () => {
    expect(isClientAbort(aborted, false)).toBe(false);
  });

  it.each([[new Error('boom')], [null], [undefined], ['ECONNRESET']])('is false for %p even when the socket is gone', (error) => {
    expect(isClientAbort(error, true)).toBe(false);
  });
});

describe('dependencyUnavailableCode', () => {
  it('is SERVICE_UNAVAILABLE on every route but the quota usage, which the contract gives only 401 and 500', () => {
    expect(dependencyUnavailableCode('/v1/verify')).toBe('SERVICE_UNAVAILABLE');
    expect(dependencyUnavailableCode('/v1/quota/history')).toBe('SERVICE_UNAVAILABLE');
    expect(dependencyUnavailableCode(undefined)).toBe('SERVICE_UNAVAILABLE');
    expect(dependencyUnavailableCode('/v1/quota/usage')).toBe('INTERNAL_ERROR');
  });
});
