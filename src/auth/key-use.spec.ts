import { isUseWorthRecording, KEY_USE_RESOLUTION_MS } from './key-use';

describe('isUseWorthRecording', () => {
  const recorded = Date.parse('2026-11-25T12:00:00.000Z');

  it('records the first use this process sees', () => {
    expect(isUseWorthRecording(undefined, recorded)).toBe(true);
  });

  it('skips a use less than a minute after the last one written', () => {
    expect(isUseWorthRecording(recorded, recorded + KEY_USE_RESOLUTION_MS - 1)).toBe(false);
  });

  it('records a use a whole minute after the last one written', () => {
    expect(isUseWorthRecording(recorded, recorded + KEY_USE_RESOLUTION_MS)).toBe(true);
  });

  it('skips a use at the same instant', () => {
    expect(isUseWorthRecording(recorded, recorded)).toBe(false);
  });
});
