import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, HeaderObject, OpenAPIObject, ResponseObject } from '@nestjs/swagger';
import { errorResponseDocs } from './error-examples';

/** Metadata the API key guard reads: this route takes no token from its user's bucket. */
export const RATE_LIMIT_EXEMPT = 'lvs:rate-limit-exempt';
const EXEMPT_EXTENSION = 'x-rate-limit-exempt';

/** Exempts a route from the per-user rate limit (its interface defines no 429). */
export function RateLimitExempt(): MethodDecorator {
  return applyDecorators(SetMetadata(RATE_LIMIT_EXEMPT, true), ApiExtension(EXEMPT_EXTENSION, true));
}

const RATE_LIMIT_HEADERS: Record<string, HeaderObject> = {
  RateLimit: {
    description: 'draft-ietf-httpapi-ratelimit-headers-10: requests left in your bucket (r) and seconds until one more is (t)',
    schema: { type: 'string', pattern: '^"user";r=\\d+;t=\\d+$' },
  },
  'RateLimit-Policy': {
    description: 'draft-ietf-httpapi-ratelimit-headers-10: your bucket, as q requests per window of w seconds',
    schema: { type: 'string', pattern: '^"user";q=\\d+;w=\\d+$' },
  },
};

const RETRY_AFTER: HeaderObject = {
  description: 'RATE_LIMITED: whole seconds to wait before the next request is admitted',
  schema: { type: 'integer', minimum: 1 },
};

/** Every answer of a limited operation carries the RateLimit fields once its key is accepted: 2xx always. */
function withRateLimitHeaders(status: string, response: ResponseObject): void {
  const required = status.startsWith('2');
  response.headers = { ...response.headers };
  for (const [name, header] of Object.entries(RATE_LIMIT_HEADERS)) response.headers[name] = { ...header, required };
}

/** The error codes an error answer's examples show (they are named after their codes). */
function codesOf(response: ResponseObject): string[] {
  return Object.keys(response.content?.['application/json']?.examples ?? {});
}

/**
 * Documents the rate limit on every operation that takes an API key (it answers 401) and is not exempt:
 * the RateLimit fields on its answers, 429 RATE_LIMITED with Retry-After (merged with QUOTA_EXCEEDED where
 * the operation has it), and 503 SERVICE_UNAVAILABLE for a limiter that cannot reach Redis.
 */
export function applyRateLimitDocs(document: OpenAPIObject): OpenAPIObject {
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem) as Array<Record<string, unknown> & { responses?: Record<string, ResponseObject> }>) {
      const responses = operation?.responses;
      if (!responses) continue;
      const exempt = operation[EXEMPT_EXTENSION] === true;
      delete operation[EXEMPT_EXTENSION];
      const unauthorized = responses['401'];
      if (exempt || !unauthorized) continue;
      for (const doc of errorResponseDocs(['RATE_LIMITED', 'SERVICE_UNAVAILABLE'])) {
        const status = String(doc.status);
        const existing = responses[status];
        if (!existing) {
          const schema = unauthorized.content?.['application/json']?.schema;
          responses[status] = { description: doc.description, content: { 'application/json': { schema, examples: doc.examples } } };
        } else if (status === '429' && !codesOf(existing).includes('RATE_LIMITED')) {
          existing.description = `${existing.description}; ${doc.description}`;
          const media = existing.content?.['application/json'];
          if (media) media.examples = { ...media.examples, ...doc.examples };
        }
      }
      // Retry-After comes with RATE_LIMITED only, so it is required where no other code shares 429.
      const tooMany = responses['429'];
      tooMany.headers = { ...tooMany.headers, 'Retry-After': { ...RETRY_AFTER, required: codesOf(tooMany).length === 1 } };
      for (const [status, response] of Object.entries(responses)) if (status !== '401') withRateLimitHeaders(status, response);
    }
  }
  return document;
}
