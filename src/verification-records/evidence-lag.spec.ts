import { redisTimeMs, streamEntryAgeSeconds } from './evidence-lag';

describe('streamEntryAgeSeconds', () => {
  it('is the time since the millisecond part of the id, in seconds', () => {
    expect(streamEntryAgeSeconds('1764370000000-0', 1764370090500)).toBe(90.5);
    expect(streamEntryAgeSeconds('1764370000000-17', 1764370000001)).toBe(0.001);
  });

  it('is 0 for an entry stamped after the given time, not negative', () => {
    expect(streamEntryAgeSeconds('1764370000500-0', 1764370000000)).toBe(0);
  });

  it.each(['', 'abc-0', '1.5-0', '-1'])('refuses %p, which no XADD makes', (id) => {
    expect(() => streamEntryAgeSeconds(id, 0)).toThrow(`Not a stream entry id: ${id}`);
  });
});

describe('redisTimeMs', () => {
  it("turns TIME's seconds and microseconds into milliseconds, dropping the rest", () => {
    expect(redisTimeMs(['1764370090', '500999'])).toBe(1764370090500);
    expect(redisTimeMs([1764370090, 0])).toBe(1764370090000);
  });
});
