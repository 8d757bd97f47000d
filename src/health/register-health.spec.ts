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
    expect(registerHealth('closed', { canary: true, pageShape: false })).toEqual({
      state: 'closed',
      register: 'drifted',
      message: 'A register canary failed: check its alert, then `npm run admin -- canary acknowledge` (or `canary rebaseline`)',
    });
    expect(registerHealth('open', { canary: true, pageShape: true })).toMatchObject({ register: 'degraded' });
    expect(registerHealth('closed', { canary: false, pageShape: false })).toEqual({ state: 'closed', register: 'ok' });
  });

  it('is drifted while a page of a new shape is unacknowledged, saying both causes when a canary failed too', () => {
    const shapeMessage =
      'The register served a page of a new shape: check its alert and sample (`npm run admin -- shape list`), then `npm run admin -- shape acknowledge SHAPE`';
    expect(registerHealth('closed', { canary: false, pageShape: true })).toEqual({ state: 'closed', register: 'drifted', message: shapeMessage });
    expect(registerHealth('half-open', { canary: false, pageShape: true })).toMatchObject({ register: 'degraded' });
    expect(registerHealth('closed', { canary: true, pageShape: true })).toEqual({
      state: 'closed',
      register: 'drifted',
      message: `A register canary failed: check its alert, then \`npm run admin -- canary acknowledge\` (or \`canary rebaseline\`); ${shapeMessage}`,
    });
  });
});
