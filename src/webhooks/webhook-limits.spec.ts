import { busyEndpointDelayMs, endpointKeyParts, wholeSecondsToWait } from './webhook-limits';

describe('webhook limits', () => {
  it('rounds the wait up to whole seconds, at least 1', () => {
    expect([1, 999, 1000, 1001, 9_999, 10_000].map(wholeSecondsToWait)).toEqual([1, 1, 1, 2, 10, 10]);
    expect(wholeSecondsToWait(0)).toBe(1);
  });

  it('brings a delivery back to a busy endpoint when its first lease ends, within 250 ms to 5 s, spread by up to 250 ms', () => {
    expect(busyEndpointDelayMs(1_200, 0)).toBe(1_200);
    expect(busyEndpointDelayMs(1_200, 0.5)).toBe(1_325);
    expect(busyEndpointDelayMs(0, 0)).toBe(250);
    expect(busyEndpointDelayMs(-10, 0.999_999)).toBe(499);
    expect(busyEndpointDelayMs(14_000, 0)).toBe(5_000);
  });

  it("keys an endpoint's limits under its user's hash tag", () => {
    expect(endpointKeyParts('in-flight', 'u-1', 'e-1')).toEqual(['webhooks', 'in-flight', '{uu-1}', 'e-1']);
    expect(endpointKeyParts('manual-send', 'u-1', 'e-1')).toEqual(['webhooks', 'manual-send', '{uu-1}', 'e-1']);
  });
});
