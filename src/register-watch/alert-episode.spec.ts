import { episodeStep, lastedThreshold } from './alert-episode';

describe('episodeStep', () => {
  it('starts an episode when the condition turns bad, and ends it when it clears', () => {
    expect(episodeStep(false, true)).toBe('start');
    expect(episodeStep(true, false)).toBe('end');
  });

  it('sends nothing while the condition stays as it was', () => {
    expect(episodeStep(true, true)).toBeNull();
    expect(episodeStep(false, false)).toBeNull();
  });

  it('sends one alert and one recovery for a run of checks', () => {
    const checks = [false, true, true, true, false, false];
    let open = false;
    const sent: string[] = [];
    for (const bad of checks) {
      const step = episodeStep(open, bad);
      if (step) sent.push(step);
      if (step) open = step === 'start';
    }
    expect(sent).toEqual(['start', 'end']);
  });
});

describe('lastedThreshold', () => {
  it('is true from the threshold on, and never for a condition that is fine', () => {
    expect(lastedThreshold(1000, 120_999, 120_000)).toBe(false);
    expect(lastedThreshold(1000, 121_000, 120_000)).toBe(true);
    expect(lastedThreshold(null, 1e12, 1)).toBe(false);
  });
});
