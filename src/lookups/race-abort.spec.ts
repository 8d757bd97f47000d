import { getEventListeners } from 'node:events';
import { raceAbort } from './race-abort';

const abortListeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

describe('raceAbort', () => {
  it('leaves no listener on the signal after 1,000 races that the work won', async () => {
    const stopping = new AbortController();
    const before = abortListeners(stopping.signal);
    for (let i = 0; i < 1000; i += 1) {
      expect(await raceAbort(Promise.resolve(i), stopping.signal, -1)).toBe(i);
    }
    expect(abortListeners(stopping.signal)).toBe(before);
  });

  it('answers whenAborted when the signal aborts first, and removes its listener', async () => {
    const stopping = new AbortController();
    const race = raceAbort(new Promise<string>(() => undefined), stopping.signal, 'stopped');
    expect(abortListeners(stopping.signal)).toBe(1);
    stopping.abort();
    expect(await race).toBe('stopped');
    expect(abortListeners(stopping.signal)).toBe(0);
  });

  it('answers whenAborted at once for a signal already aborted, adding no listener', async () => {
    const stopping = new AbortController();
    stopping.abort();
    expect(await raceAbort(new Promise<string>(() => undefined), stopping.signal, 'stopped')).toBe('stopped');
    expect(abortListeners(stopping.signal)).toBe(0);
  });

  it("passes the work's rejection on, and removes its listener", async () => {
    const stopping = new AbortController();
    await expect(raceAbort(Promise.reject(new Error('lookup failed')), stopping.signal, 'stopped')).rejects.toThrow('lookup failed');
    expect(abortListeners(stopping.signal)).toBe(0);
  });
});
