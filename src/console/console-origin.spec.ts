import { consoleOrigin, isConsoleOrigin } from './console-origin';

describe('consoleOrigin', () => {
  it("is the request's own origin without a public address", () => {
    expect(consoleOrigin('', { protocol: 'http', host: '127.0.0.1:3000' })).toBe('http://127.0.0.1:3000');
  });

  it('is the origin of the public address, without its path', () => {
    expect(consoleOrigin('https://partners.example.com/lvs', { protocol: 'http', host: 'internal:3000' })).toBe('https://partners.example.com');
  });
});

describe('isConsoleOrigin', () => {
  const origin = 'https://partners.example.com';

  it('accepts the same origin, in any case', () => {
    expect(isConsoleOrigin('https://Partners.Example.com', origin)).toBe(true);
  });

  it.each([undefined, 'null', 'https://evil.example', 'http://partners.example.com', 'https://partners.example.com:444'])('refuses %p', (header) => {
    expect(isConsoleOrigin(header, origin)).toBe(false);
  });
});
