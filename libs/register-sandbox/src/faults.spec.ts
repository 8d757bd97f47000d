import { FaultBook, FaultSettingError, parseFaultSetting, pickLatencyMs } from './faults';

describe('parseFaultSetting', () => {
  it('accepts every field', () => {
    const input = { fault: 'status-503', latencyMs: 10, latencyMaxMs: 20, times: 2, licenceNumber: ' 1011001544208079 ' };

    expect(parseFaultSetting(input)).toEqual({ ...input, licenceNumber: '1011001544208079' });
  });

  it('accepts latency alone', () => {
    expect(parseFaultSetting({ fault: 'none', latencyMs: 7000 })).toEqual({ fault: 'none', latencyMs: 7000 });
  });

  it.each([
    [null, 'body must be a JSON object'],
    [[], 'body must be a JSON object'],
    ['hang', 'body must be a JSON object'],
    [{}, 'fault must be one of none, status-500, status-503, status-429, status-404, hang, reset, maintenance, truncated, oversize, redirect'],
    [
      { fault: 'status-502' },
      'fault must be one of none, status-500, status-503, status-429, status-404, hang, reset, maintenance, truncated, oversize, redirect',
    ],
    [{ fault: 'hang', latency: 5 }, 'unknown field "latency"'],
    [{ fault: 'none', latencyMs: -1 }, 'latencyMs must be a non-negative integer'],
    [{ fault: 'none', latencyMs: '100' }, 'latencyMs must be a non-negative integer'],
    [{ fault: 'none', latencyMs: 1.5 }, 'latencyMs must be a non-negative integer'],
    [{ fault: 'none', latencyMaxMs: 100 }, 'latencyMaxMs needs latencyMs'],
    [{ fault: 'none', latencyMs: 100, latencyMaxMs: 99 }, 'latencyMaxMs must be >= latencyMs'],
    [{ fault: 'reset', times: 0 }, 'times must be at least 1'],
    [{ fault: 'reset', times: 'twice' }, 'times must be a non-negative integer'],
    [{ fault: 'reset', licenceNumber: 1011001544208079 }, 'licenceNumber must be a non-empty string'],
    [{ fault: 'reset', licenceNumber: ' ' }, 'licenceNumber must be a non-empty string'],
  ])('refuses %j', (input, message) => {
    expect(() => parseFaultSetting(input)).toThrow(FaultSettingError);
    expect(() => parseFaultSetting(input)).toThrow(message);
  });
});

describe('pickLatencyMs', () => {
  it('is zero without latency and fixed with latencyMs alone', () => {
    expect(pickLatencyMs({ fault: 'hang' })).toBe(0);
    expect(pickLatencyMs({ fault: 'none', latencyMs: 250 })).toBe(250);
  });

  it('stays within [latencyMs, latencyMaxMs] and reaches both ends', () => {
    const picks = new Set(Array.from({ length: 500 }, () => pickLatencyMs({ fault: 'none', latencyMs: 10, latencyMaxMs: 12 })));

    expect([...picks].sort()).toEqual([10, 11, 12]);
  });
});

describe('FaultBook', () => {
  const number = '1011001544208079';
  const otherNumber = '1023004455667788';

  it('has no fault until one is set, and none after clear()', () => {
    const book = new FaultBook();
    expect(book.take(number)).toBeNull();

    book.set({ fault: 'hang' });
    book.set({ fault: 'reset', licenceNumber: number });
    book.clear();

    expect(book.take(number)).toBeNull();
    expect(book.view()).toEqual({ global: null, byLicence: {} });
  });

  it('applies a global fault to every number until cleared', () => {
    const book = new FaultBook();
    book.set({ fault: 'status-503', latencyMs: 5 });

    expect([book.take(number), book.take(otherNumber), book.take(number)]).toEqual([
      { fault: 'status-503', latencyMs: 5 },
      { fault: 'status-503', latencyMs: 5 },
      { fault: 'status-503', latencyMs: 5 },
    ]);
  });

  it('prefers a per-number fault to the global one, for that number only', () => {
    const book = new FaultBook();
    book.set({ fault: 'status-503' });
    book.set({ fault: 'reset', licenceNumber: number });

    expect(book.take(number)).toEqual({ fault: 'reset' });
    expect(book.take(otherNumber)).toEqual({ fault: 'status-503' });
  });

  it('reverts after `times` matching requests, not counting requests it did not match', () => {
    const book = new FaultBook();
    book.set({ fault: 'status-500', times: 2, licenceNumber: number });

    expect(book.take(otherNumber)).toBeNull();
    expect(book.view().byLicence[number]).toEqual({ fault: 'status-500', remaining: 2 });
    expect([book.take(number), book.take(number), book.take(number)]).toEqual([{ fault: 'status-500' }, { fault: 'status-500' }, null]);
    expect(book.view()).toEqual({ global: null, byLicence: {} });
  });

  it('does not use up a global fault on a request a per-number fault answered', () => {
    const book = new FaultBook();
    book.set({ fault: 'hang', times: 1 });
    book.set({ fault: 'reset', licenceNumber: number });

    expect(book.take(number)).toEqual({ fault: 'reset' });
    expect(book.take(otherNumber)).toEqual({ fault: 'hang' });
    expect(book.take(otherNumber)).toBeNull();
  });

  it('replaces an earlier fault of the same scope', () => {
    const book = new FaultBook();
    book.set({ fault: 'hang', times: 5 });
    book.set({ fault: 'maintenance' });

    expect(book.view()).toEqual({ global: { fault: 'maintenance', remaining: null }, byLicence: {} });
  });
});
