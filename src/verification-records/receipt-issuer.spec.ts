import { listenerOrigin } from './receipt-issuer';

describe('listenerOrigin', () => {
  it('names a bound address and port, a wildcard address as localhost and an IPv6 one in brackets', () => {
    expect(listenerOrigin({ address: '127.0.0.1', family: 'IPv4', port: 3000 })).toBe('http://127.0.0.1:3000');
    expect(listenerOrigin({ address: '0.0.0.0', family: 'IPv4', port: 3000 })).toBe('http://localhost:3000');
    expect(listenerOrigin({ address: '::', family: 'IPv6', port: 8080 })).toBe('http://localhost:8080');
    expect(listenerOrigin({ address: '::1', family: 'IPv6', port: 8080 })).toBe('http://[::1]:8080');
  });

  it('falls back to localhost when the listener is a pipe or not bound', () => {
    expect(listenerOrigin('/tmp/api.sock')).toBe('http://localhost');
    expect(listenerOrigin(null)).toBe('http://localhost');
  });
});
