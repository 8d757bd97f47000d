import { busyEndpointDelayMs, endpointKeyParts, wholeSecondsToWait } from './webhook-limits';

describe('webhook limits', () => {
  it('rounds the wait up to whole seconds, at least 1', () => {
    expect([1, 999, 1000, 1001, 9_999, 10_000].map(wholeSecondsToWait)).toEqual([1, 1, 1, 2, 10, 10]);
    expect(wholeSecondsToWait(0)).toBe(1);
  });

  it('brings a delivery back to a busy endpoint within 250-750 ms, spread by the random draw', () => {
    expect(busyEndpointDelayMs(0)).toBe(250);
    expect(busyEndpointDelayMs(0.5)).toBe(500);
    expect(busyEndpointDelayMs(0.999_999)).toBe(749);
  });

  it("keys an endpoint's limits under its user's hash tag", () => {
    expect(endpointKeyParts('in-flight', 'u-1', 'e-1')).toEqual(['webhooks', 'in-flight', '{uu-1}', 'e-1']);
    expect(endpointKeyParts('manual-send', 'u-1', 'e-1')).toEqual(['webhooks', 'manual-send', '{uu-1}', 'e-1']);
  });
});
