import type { FastifyInstance } from 'fastify';

/**
 * helmet 8's default policy, except that style-src allows inline styles (Swagger UI at /docs carries them) and
 * upgrade-insecure-requests is left out (the API may be served over plain HTTP: development, behind TLS
 * termination, and /docs must keep working there).
 */
const CONTENT_SECURITY_POLICY: [directive: string, sources: string][] = [
  ['default-src', "'self'"],
  ['base-uri', "'self'"],
  ['font-src', "'self' https: data:"],
  ['form-action', "'self'"],
  ['frame-ancestors', "'self'"],
  ['img-src', "'self' data:"],
  ['object-src', "'none'"],
  ['script-src', "'self'"],
  ['script-src-attr', "'none'"],
  ['style-src', "'self' 'unsafe-inline'"],
];

/**
 * The security headers of every answer: helmet 8's defaults with the policy above. None depends on the request,
 * so they are set as they are; running helmet's middleware per request cost 7 % of the API's CPU on a cached
 * verification, and running it once needed a fake response object.
 */
export function securityHeaders(): Record<string, string> {
  return {
    'content-security-policy': CONTENT_SECURITY_POLICY.map(([directive, sources]) => `${directive} ${sources}`).join(';'),
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    'strict-transport-security': 'max-age=31536000; includeSubDomains',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };
}

export function registerSecurityHeaders(fastify: FastifyInstance): void {
  const headers = securityHeaders();
  fastify.addHook('onRequest', (_request, reply, done) => {
    void reply.headers(headers);
    done();
  });
}
