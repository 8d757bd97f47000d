import { execFile, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { LoadFigures, LoadPlan, reusedPairs } from './load-plan';

/**
 * wrk for the timed runs, when it is installed (Debian's `wrk` package): written in C, it took 42-46 % of a core at
 * the bare route's pace on 2026-11-25, where autocannon, on the same two cores as the service, took 94-97 % and
 * left the bare server at 82-85 % of the other: through autocannon the baseline measured autocannon too.
 */
export const WRK_THREADS = 2;

/** Whether the timed runs go through wrk: it is installed, and BENCH_LOAD_GENERATOR does not ask for autocannon. */
export function wrkInstalled(): boolean {
  return process.env.BENCH_LOAD_GENERATOR !== 'autocannon' && spawnSync('wrk', ['--version']).error === undefined;
}

const luaString = (text: string) => JSON.stringify(text); // plain ASCII keys and numbers: a JSON string is a Lua string
const luaList = (texts: string[]) => `{${texts.map(luaString).join(',')}}`;

/**
 * The plan as a wrk script: thread t sends requests firstIndex + t, + t + WRK_THREADS, ..., so that together the
 * threads use the pairs in the order LoadPlan.apiKeys describes (the same user and number for the i-th request
 * as autocannon's run); each thread counts answers by status, and done() prints the figures as one JSON line.
 */
function wrkScript(plan: LoadPlan): string {
  return `
local keys = ${luaList(plan.apiKeys)}
local numbers = ${luaList(plan.numbers)}
local first, threadCount = ${plan.firstIndex}, ${WRK_THREADS}
local interleave = ${plan.interleaveUsers === true}
local method, path = ${luaString(plan.method)}, ${luaString(plan.path)}
local moreFields = ${luaString(
    Object.entries(plan.bodyFields ?? {})
      .map(([field, value]) => `,${JSON.stringify(field)}:${JSON.stringify(value)}`)
      .join(''),
  )}
local started = {}

function setup(thread)
  thread:set("threadIndex", #started)
  started[#started + 1] = thread
end

function init(args)
  issued = 0
  counts = {}
end

function request()
  local index = first + threadIndex + issued * threadCount
  issued = issued + 1
  local user, number
  if interleave then
    user, number = index % #keys, math.floor(index / #keys)
  else
    user, number = math.floor(index / math.max(#numbers, 1)), index
  end
  local headers = { ["x-api-key"] = keys[user % #keys + 1] }
  local body = nil
  if #numbers > 0 then
    headers["content-type"] = "application/json"
    body = '{"licenceNumber":"' .. numbers[number % #numbers + 1] .. '"' .. moreFields .. '}'
  end
  return wrk.format(method, path, headers, body)
end

function response(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
end

function done(summary, latency, requests)
  local issuedTotal, outcomes, answered = 0, {}, 0
  for _, thread in ipairs(started) do
    issuedTotal = issuedTotal + thread:get("issued")
    for status, count in pairs(thread:get("counts")) do
      outcomes[status] = (outcomes[status] or 0) + count
      answered = answered + count
    end
  end
  local fields = {}
  for status, count in pairs(outcomes) do fields[#fields + 1] = string.format('"%d":%d', status, count) end
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write
  if errors > 0 then fields[#fields + 1] = string.format('"errors":%d', errors) end
  if summary.errors.timeout > 0 then fields[#fields + 1] = string.format('"timeouts":%d', summary.errors.timeout) end
  io.write(string.format(
    '\\n{"requests":%d,"p50":%.3f,"p99":%.3f,"issued":%d,"outcomes":{%s}}\\n',
    answered, latency:percentile(50) / 1000, latency:percentile(99) / 1000, issuedTotal, table.concat(fields, ",")))
end
`;
}

interface WrkLine {
  requests: number;
  p50: number;
  p99: number;
  issued: number;
  outcomes: Record<string, number>;
}

/** One timed run of the plan through wrk; the script file goes next to the plan's. */
export async function runWrk(plan: LoadPlan & { durationSeconds: number }, scriptFile: string): Promise<LoadFigures> {
  writeFileSync(scriptFile, wrkScript(plan));
  const { stdout } = await promisify(execFile)(
    'wrk',
    ['-t', String(WRK_THREADS), '-c', String(plan.connections), '-d', `${plan.durationSeconds}s`, '--timeout', '10s', '-s', scriptFile, plan.url],
    { maxBuffer: 1 << 20 },
  );
  const line = stdout.split('\n').find((text) => text.startsWith('{"requests"'));
  if (line === undefined) throw new Error(`wrk printed no figures:\n${stdout}`);
  const figures = JSON.parse(line) as WrkLine;
  return {
    requests: figures.requests,
    seconds: plan.durationSeconds,
    perSecond: figures.requests / plan.durationSeconds,
    p50: figures.p50,
    p99: figures.p99,
    outcomes: figures.outcomes,
    reusedPairs: reusedPairs(plan, figures.issued),
  };
}
