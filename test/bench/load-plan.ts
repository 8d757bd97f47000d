/** What the bench asks of one load run, and what the run measured; read by both load generators. */
export interface LoadPlan {
  url: string;
  method: 'GET' | 'POST';
  path: string;
  connections: number;
  /** run for this long, or */
  durationSeconds?: number;
  /** send exactly this many requests */
  amount?: number;
  /**
   * the i-th request uses apiKeys[floor(i / numbers.length) % apiKeys.length] and numbers[i % numbers.length]:
   * one user's numbers in a row; or, with interleaveUsers, apiKeys[i % apiKeys.length] and
   * numbers[floor(i / apiKeys.length) % numbers.length]: consecutive requests from different users
   */
  apiKeys: string[];
  interleaveUsers?: boolean;
  /** licence numbers for POST bodies; none for GET */
  numbers: string[];
  /** more fields of every POST body, the same in each (verify-holder's names and date of birth) */
  bodyFields?: Record<string, string>;
  /** index of the first request, so that consecutive runs can use pairs not used before */
  firstIndex: number;
  /** how many pairs from firstIndex on no earlier run used; all of them by default */
  freshPairs?: number;
}

export interface LoadFigures {
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** HTTP status (or "errors", "timeouts") -> count */
  outcomes: Record<string, number>;
  /** requests beyond the plan's fresh pairs: a pair an earlier run or this one already used */
  reusedPairs: number;
}

/** Requests beyond the plan's fresh pairs, of `issued` sent: pairs an earlier run or this one already used. */
export function reusedPairs(plan: LoadPlan, issued: number): number {
  const pairs = plan.apiKeys.length * Math.max(plan.numbers.length, 1);
  return Math.max(issued - Math.min(plan.freshPairs ?? pairs, pairs), 0);
}
