import pino from 'pino';
import { isoTimePerMillisecond } from './iso-time';

describe('isoTimePerMillisecond', () => {
  it("writes the field exactly as pino's isoTime does for the same moment", () => {
    const moment = Date.UTC(2026, 10, 25, 1, 2, 3, 45);
    const realNow = Date.now;
    Date.now = () => moment;
    try {
      expect(isoTimePerMillisecond(() => moment)()).toBe(pino.stdTimeFunctions.isoTime());
    } finally {
      Date.now = realNow;
    }
    expect(isoTimePerMillisecond(() => moment)()).toBe(',"time":"2026-11-25T01:02:03.045Z"');
  });

  it('works the string out once per millisecond and anew when the clock moves', () => {
    let now = Date.UTC(2026, 10, 25, 1, 2, 3, 45);
    const toISOString = jest.spyOn(Date.prototype, 'toISOString');
    const timestamp = isoTimePerMillisecond(() => now);
    expect([timestamp(), timestamp(), timestamp()]).toEqual(Array(3).fill(',"time":"2026-11-25T01:02:03.045Z"'));
    expect(toISOString).toHaveBeenCalledTimes(1);
    now += 1;
    expect(timestamp()).toBe(',"time":"2026-11-25T01:02:03.046Z"');
    expect(toISOString).toHaveBeenCalledTimes(2);
    toISOString.mockRestore();
  });
});
