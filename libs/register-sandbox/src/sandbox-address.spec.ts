import { integerFromEnv, sandboxAddress } from './sandbox-address';

describe('sandboxAddress', () => {
  it('is 127.0.0.1:4010 unless SANDBOX_HOST or SANDBOX_PORT say otherwise (empty counts as unset)', () => {
    expect(sandboxAddress({})).toEqual({ host: '127.0.0.1', port: 4010 });
    expect(sandboxAddress({ SANDBOX_HOST: '', SANDBOX_PORT: '' })).toEqual({ host: '127.0.0.1', port: 4010 });
    expect(sandboxAddress({ SANDBOX_HOST: '0.0.0.0', SANDBOX_PORT: '0' })).toEqual({ host: '0.0.0.0', port: 0 });
  });

  it('refuses a port that is not an integer from 0 to 65535', () => {
    expect(() => sandboxAddress({ SANDBOX_PORT: '65536' })).toThrow('SANDBOX_PORT "65536" is not an integer from 0 to 65535');
    expect(() => sandboxAddress({ SANDBOX_PORT: 'x' })).toThrow('SANDBOX_PORT "x" is not an integer from 0 to 65535');
  });
});

describe('integerFromEnv', () => {
  it('reads the named setting within its bounds', () => {
    expect(integerFromEnv({ SANDBOX_SLOW_LATENCY_MS: '250' }, 'SANDBOX_SLOW_LATENCY_MS', 8000, 600_000)).toBe(250);
    expect(integerFromEnv({}, 'SANDBOX_SLOW_LATENCY_MS', 8000, 600_000)).toBe(8000);
    expect(() => integerFromEnv({ SANDBOX_SLOW_LATENCY_MS: '-1' }, 'SANDBOX_SLOW_LATENCY_MS', 8000, 600_000)).toThrow(
      'SANDBOX_SLOW_LATENCY_MS "-1" is not an integer from 0 to 600000',
    );
  });
});
