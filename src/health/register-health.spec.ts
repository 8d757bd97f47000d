import { registerHealth } from './register-health';

describe('registerHealth', () => {
  it('is ok while the breaker is closed', () => {
    expect(registerHealth('closed')).toEqual({ state: 'closed', register: 'ok' });
  });

  it('is degraded, and says why and what partners meet, while the breaker is open', () => {
    expect(registerHealth('open')).toEqual({
      state: 'open',
      register: 'degraded',
      message:
        "The register cannot be reached: new lookups answer 503 until it answers again, cached answers are still served; the worker's log names the cause in a line 'Register <host> unreachable: …'",
    });
  });

  it('is degraded while one lookup tries the register again', () => {
    expect(registerHealth('half-open')).toMatchObject({
      state: 'half-open',
      register: 'degraded',
      message: expect.stringMatching(/^The register could not be reached: one lookup is trying it again/),
    });
  });

  it('is drifted while a canary failure is unacknowledged, unless the register is out of reach', () => {
    expect(registerHealth('closed', true)).toEqual({
      state: 'closed',
      register: 'drifted',
      message: 'A register canary failed: check its alert, then `npm run admin -- canary acknowledge` (or `canary rebaseline`)',
    });
    expect(registerHealth('open', true)).toMatchObject({ register: 'degraded' });
    expect(registerHealth('closed', false)).toEqual({ state: 'closed', register: 'ok' });
  });
});
