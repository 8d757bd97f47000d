import { securityHeaders, SECURITY_HEADER_OPTIONS } from './security-headers';

describe('securityHeaders', () => {
  it('gives helmet\'s headers for our options, with a CSP that keeps Swagger UI working over plain HTTP', () => {
    const headers = securityHeaders(SECURITY_HEADER_OPTIONS);
    expect(headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'x-xss-protection': '0',
    });
    const policy = headers['content-security-policy'].split(';');
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("style-src 'self' 'unsafe-inline'");
    expect(policy).toContain("script-src 'self'");
    expect(policy.some((directive) => directive.startsWith('upgrade-insecure-requests'))).toBe(false);
    expect(headers).not.toHaveProperty('x-powered-by');
  });

  it('refuses options helmet refuses, at start-up rather than per request', () => {
    expect(() => securityHeaders({ contentSecurityPolicy: { directives: { 'script-src': ['evil;injection'] } } })).toThrow();
  });
});
