import { setTimeout as sleep } from 'node:timers/promises';

/** Reads a value every 100 ms until `done` accepts it; fails with the last value after the timeout. */
export async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Condition not met: ${JSON.stringify(value).slice(0, 2000)}`);
    await sleep(100);
  }
}

/** 16-digit numbers the sandbox does not know (NOT_FOUND), distinct per series. */
export function unknownNumber(series: number, index: number): string {
  return String(1_700_000_000_000_000 + series * 100_000 + index);
}
