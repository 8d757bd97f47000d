import { SpanKind } from '@opentelemetry/api';

/**
 * Which spans may begin a trace: work that arrives (an HTTP request, a job taken from a queue) or is sent on (a job
 * added with no request behind it, such as a canary's). BullMQ's own housekeeping (polling for the next job, stalled
 * checks) and calls to servers made outside any such work would otherwise each make a trace of their own, every few
 * seconds, with nothing to follow.
 */
export function beginsTrace(kind: SpanKind): boolean {
  return kind === SpanKind.SERVER || kind === SpanKind.CONSUMER || kind === SpanKind.PRODUCER;
}

/** A query's operation for its span name (SELECT, INSERT, WITH...): its first word, which carries no values. */
export function sqlOperation(sql: string): string {
  return /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';
}
