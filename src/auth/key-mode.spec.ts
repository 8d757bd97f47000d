import { issuedKeyMode } from './key-mode';

describe('issuedKeyMode', () => {
  it("defaults to the calling key's mode", () => {
    expect(issuedKeyMode('live', undefined)).toBe('live');
    expect(issuedKeyMode('test', undefined)).toBe('test');
  });

  it('lets a live key issue keys of either mode', () => {
    expect(issuedKeyMode('live', 'live')).toBe('live');
    expect(issuedKeyMode('live', 'test')).toBe('test');
  });

  it('lets a test key issue test keys only', () => {
    expect(issuedKeyMode('test', 'test')).toBe('test');
    expect(issuedKeyMode('test', 'live')).toBeNull();
  });
});
