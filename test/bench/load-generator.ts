import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { runWrk, wrkInstalled } from './wrk-load';

/**
 * The load generator, in its own process so that it never shares an event loop with what it
 * measures. Reads a plan (JSON file named by the first argument), runs it through wrk (a timed run, when
 * wrk is installed) or autocannon, and prints one JSON line with the figures.
 */
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

async function runAutocannon(plan: LoadPlan): Promise<LoadFigures> {
  const pairs = plan.apiKeys.length * Math.max(plan.numbers.length, 1);
  let next = plan.firstIndex;
  const [userIndex, numberIndex] = plan.interleaveUsers
    ? [(index: number) => index % plan.apiKeys.length, (index: number) => Math.floor(index / plan.apiKeys.length)]
    : [(index: number) => Math.floor(index / Math.max(plan.numbers.length, 1)), (index: number) => index];
  const body = (index: number) =>
    plan.numbers.length > 0 ? JSON.stringify({ licenceNumber: plan.numbers[numberIndex(index) % plan.numbers.length] }) : undefined;
  const apiKey = (index: number) => plan.apiKeys[userIndex(index) % plan.apiKeys.length];
  const started = process.hrtime.bigint();
  let lastAnswerAt = started;
  const options: autocannon.Options = {
    url: plan.url,
    connections: plan.connections,
    ...(plan.amount === undefined ? { duration: plan.durationSeconds } : { amount: plan.amount }),
    requests: [
      {
        method: plan.method,
        path: plan.path,
        setupRequest: (request) => {
          const index = next++;
          return {
            ...request,
            headers: { 'content-type': 'application/json', 'x-api-key': apiKey(index) },
            body: body(index),
          };
        },
      },
    ],
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (error: unknown, finished: autocannon.Result) => (error ? reject(error) : resolve(finished)));
    instance.on('response', () => (lastAnswerAt = process.hrtime.bigint()));
  });
  // autocannon ends a run on its one-second tick: a run of a fixed number of requests would count up to a
  // second of nothing after its last answer. It took until that answer.
  const seconds = Number(lastAnswerAt - started) / 1e9;
  const outcomes: Record<string, number> = {};
  const statusCodeStats = (result as unknown as { statusCodeStats: Record<string, { count: number }> }).statusCodeStats;
  for (const [status, { count }] of Object.entries(statusCodeStats)) outcomes[status] = count;
  if (result.errors > 0) outcomes.errors = result.errors;
  if (result.timeouts > 0) outcomes.timeouts = result.timeouts;
  const requests = Object.values(statusCodeStats).reduce((sum, { count }) => sum + count, 0);
  return {
    requests,
    seconds: plan.durationSeconds ?? seconds,
    perSecond: plan.durationSeconds ? requests / plan.durationSeconds : requests / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    outcomes,
    reusedPairs: Math.max(next - plan.firstIndex - Math.min(plan.freshPairs ?? pairs, pairs), 0),
  };
}

async function main(): Promise<void> {
  const planFile = process.argv[2];
  const plan = JSON.parse(readFileSync(planFile, 'utf8')) as LoadPlan;
  // wrk has no runs of a fixed number of requests: those stay with autocannon.
  const { durationSeconds } = plan;
  const figures =
    durationSeconds !== undefined && wrkInstalled()
      ? await runWrk({ ...plan, durationSeconds }, planFile.replace(/\.json$/, '.lua'))
      : await runAutocannon(plan);
  console.log(JSON.stringify(figures));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
