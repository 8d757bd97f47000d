import { errorResponseDocs } from './error-examples';

describe('errorResponseDocs', () => {
  it('gives VALIDATION_ERROR one example per text the service sends, never the generic one', () => {
    const [badRequest] = errorResponseDocs(['VALIDATION_ERROR']);
    expect(badRequest.status).toBe(400);
    expect(badRequest.description).toBe('VALIDATION_ERROR: one message per problem, see the examples');
    const messages = Object.values(badRequest.examples).map((example) => example.value);
    expect(messages).toEqual([
      { code: 'VALIDATION_ERROR', message: 'Licence number must be 16 digits' },
      { code: 'VALIDATION_ERROR', message: 'Request body must be a JSON object' },
      { code: 'VALIDATION_ERROR', message: 'Request body is not valid JSON' },
      { code: 'VALIDATION_ERROR', message: 'Content-Type must be application/json' },
      { code: 'VALIDATION_ERROR', message: 'Request body must not exceed 16 KiB' },
      { code: 'VALIDATION_ERROR', message: 'Request body is nested too deeply' },
      { code: 'VALIDATION_ERROR', message: 'Request body may only contain licenceNumber' },
      { code: 'VALIDATION_ERROR', message: 'Idempotency-Key must be 1 to 255 visible ASCII characters' },
      { code: 'VALIDATION_ERROR', message: 'Idempotency-Key was already used with a different licence number' },
      { code: 'VALIDATION_ERROR', message: 'Request is not valid HTTP' },
      { code: 'VALIDATION_ERROR', message: 'Request URL is not valid' },
      { code: 'VALIDATION_ERROR', message: 'Host header is required' },
    ]);
    expect(badRequest.examples.licenceNumber.summary).toBe('Licence number must be 16 digits');
  });

  it("gives every other code its table's status and fixed text, in the order the route lists them", () => {
    expect(errorResponseDocs(['UNAUTHORIZED', 'SERVICE_UNAVAILABLE'])).toEqual([
      {
        status: 401,
        description: 'UNAUTHORIZED: Invalid or missing API key',
        examples: {
          UNAUTHORIZED: {
            summary: 'Invalid or missing API key',
            value: { code: 'UNAUTHORIZED', message: 'Invalid or missing API key' },
          },
        },
      },
      {
        status: 503,
        description: 'SERVICE_UNAVAILABLE: Upstream service is temporarily unavailable; try again later',
        examples: {
          SERVICE_UNAVAILABLE: {
            summary: 'Upstream service is temporarily unavailable; try again later',
            value: {
              code: 'SERVICE_UNAVAILABLE',
              message: 'Upstream service is temporarily unavailable; try again later',
            },
          },
        },
      },
    ]);
  });

  it('puts codes that share an HTTP status into one response with an example each, and lists a code once', () => {
    const table = {
      RATE_LIMITED: { status: 429, message: 'Too many requests; slow down' },
      QUOTA_EXCEEDED: { status: 429, message: 'Monthly verification quota exceeded' },
      UNAUTHORIZED: { status: 401, message: 'Invalid or missing API key' },
    };
    const docs = errorResponseDocs(['RATE_LIMITED', 'UNAUTHORIZED', 'QUOTA_EXCEEDED', 'RATE_LIMITED'], undefined, table);
    expect(docs.map((doc) => doc.status)).toEqual([429, 401]);
    expect(docs[0].description).toBe('RATE_LIMITED: Too many requests; slow down; QUOTA_EXCEEDED: Monthly verification quota exceeded');
    expect(Object.keys(docs[0].examples)).toEqual(['RATE_LIMITED', 'QUOTA_EXCEEDED']);
    expect(docs[0].examples.QUOTA_EXCEEDED.value).toEqual({
      code: 'QUOTA_EXCEEDED',
      message: 'Monthly verification quota exceeded',
    });
  });

  it('documents the Retry-After that RATE_LIMITED carries, required only when every code of its status sends it', () => {
    const retryAfter = { description: 'Whole seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } };
    expect(errorResponseDocs(['RATE_LIMITED'])[0].headers).toEqual({ 'Retry-After': { ...retryAfter, required: true } });
    expect(errorResponseDocs(['QUOTA_EXCEEDED', 'RATE_LIMITED'])[0].headers).toEqual({ 'Retry-After': { ...retryAfter, required: false } });
    expect(errorResponseDocs(['QUOTA_EXCEEDED'])[0]).not.toHaveProperty('headers');
  });
});
