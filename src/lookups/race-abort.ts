/**
 * `work`'s outcome, or `whenAborted` once `signal` aborts first (or has already aborted). The abort
 * listener is removed as soon as the race is decided, whoever wins: on a long-lived signal, such as a
 * worker's shutdown signal raced by every re-check, each race would otherwise leave one listener behind.
 */
export async function raceAbort<T>(work: Promise<T>, signal: AbortSignal, whenAborted: T): Promise<T> {
  let onAbort!: () => void;
  const aborted = new Promise<T>((resolve) => (onAbort = () => resolve(whenAborted)));
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
