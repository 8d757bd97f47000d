import { AsyncLocalStorage } from 'node:async_hooks';

interface RequestContext {
  requestId: string;
}

// Carries the request id through an API request's async calls without threading it through every
// signature: the logger reads it for each line, and the lookup queue copies it into the job it enqueues.
const storage = new AsyncLocalStorage<RequestContext>();

export function runWithRequestId<T>(requestId: string, work: () => T): T {
  return storage.run({ requestId }, work);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
