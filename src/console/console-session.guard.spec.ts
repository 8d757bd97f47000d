import type { FastifyRequest } from 'fastify';
import { sentToken } from './console-session.guard';

const request = (headers: Record<string, string>, body: unknown) => ({ headers, body }) as unknown as FastifyRequest;

describe('sentToken', () => {
  it("takes a form's _csrf field", () => {
    expect(sentToken(request({}, { _csrf: 'from-form', name: 'x' }))).toBe('from-form');
  });

  it("takes an upload's X-CSRF-Token header, whatever the body", () => {
    expect(sentToken(request({ 'x-csrf-token': 'from-header' }, 'licenceNumber\n1'))).toBe('from-header');
  });

  it('finds none without either', () => {
    expect([sentToken(request({}, undefined)), sentToken(request({}, null)), sentToken(request({}, { name: 'x' }))]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('passes a repeated field on as it is, for the comparison to refuse', () => {
    expect(sentToken(request({}, { _csrf: ['a', 'b'] }))).toEqual(['a', 'b']);
  });
});
