import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { LoadFigures, LoadPlan, reusedPairs } from './load-plan';
import { runWrk, wrkInstalled } from './wrk-load';

/**
 * The load generator, in its own process so that it never shares an event loop with what it
 * measures. Reads a plan (JSON file named by the first argument), runs it through wrk (a timed run, when
 * wrk is installed) or autocannon, and prints one JSON line with the figures.
 */
async function runAutocannon(plan: LoadPlan): Promise<LoadFigures> {
  let next = plan.firstIndex;
  const [userIndex, numberIndex] = plan.interleaveUsers
    ? [(index: number) => index % plan.apiKeys.length, (index: number) => Math.floor(index / plan.apiKeys.length)]
    : [(index: number) => Math.floor(index / Math.max(plan.numbers.length, 1)), (index: number) => index];
  const body = (index: number) =>
    plan.numbers.length > 0 ? JSON.stringify({ licenceNumber: plan.numbers[numberIndex(index) % plan.numbers.length], ...plan.bodyFields }) : undefined;
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
    const instance = autocannon(options, (error: Error | null, finished: autocannon.Result) => (error ? reject(error) : resolve(finished)));
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
    reusedPairs: reusedPairs(plan, next - plan.firstIndex),
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
