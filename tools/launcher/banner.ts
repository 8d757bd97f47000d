import { DEMO_SLOW_NUMBERS, SANDBOX_NUMBERS } from '@lvs/test-register';

/** Numbers the demo's sandbox answers slowly: `1077` then 12 digits, so each paste asks a new number. */
export const DEMO_SLOW_PREFIX = DEMO_SLOW_NUMBERS.prefix;
export const DEMO_SLOW_LATENCY_MS = DEMO_SLOW_NUMBERS.latencyMs;
const DEMO_FOUND = '1011001544208079';
const DEMO_NOT_FOUND = '1888000000000000';
/** ANNA-MARIE D'ARCY, Active: the monitoring walk-through revokes her licence, not the FOUND example's. */
const DEMO_WATCHED = '1074556677889900';
/** The demo's re-check cycle: a change shows up within seconds instead of the production day. */
export const DEMO_RECHECK_SECONDS = 5;
/** The demo's canary licences (DAVID JONES, Surrendered; AHMED KHAN, Revoked): no other walk-through changes them. */
export const DEMO_CANARIES = [SANDBOX_NUMBERS.surrendered, SANDBOX_NUMBERS.revoked];
/** The demo's canary period: a register that changes shows within seconds instead of production's 15 minutes. */
export const DEMO_CANARY_SECONDS = 5;

/** The address to show for a listening address: a wildcard bind is reached on loopback. */
export function displayUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/**
 * `operatorsUrl`: where the API serves /metrics, its own address unless OPERATOR_PORT moved it.
 * `registerProblem`: why the register cannot be reached from here, or null when it answers.
 */
export function startBanner(apiUrl: string, operatorsUrl: string, registerUrl: string, registerProblem: string | null, workers: number): string[] {
  return [
    `API          ${apiUrl}`,
    `Swagger UI   ${apiUrl}/docs`,
    `Console      ${apiUrl}/console`,
    `Metrics      ${operatorsUrl}/metrics`,
    `Register     ${registerUrl}`,
    ...(registerProblem === null
      ? []
      : [`             CANNOT BE REACHED: ${registerProblem}. Verifications answer 503 until it can; check REGISTER_URL and the network.`]),
    `Workers      ${workers}`,
  ];
}

/** The keys a demo may leave unset: each process then warns that it uses a public development key. */
const DEVELOPMENT_KEY_SETTINGS = ['HOLDER_DATA_KEY', 'WEBHOOK_SECRET_KEY', 'RECEIPT_SIGNING_KEYS'];

/** Names in words: "A", "A and B", "A, B and C". */
function listInWords(names: string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** Said before the demo's processes start: the WARN lines they print are expected, and why, in one line. */
export function demoWarningsLine(environment: Record<string, string | undefined>): string {
  const unset = DEVELOPMENT_KEY_SETTINGS.filter((name) => !environment[name]);
  const keys = unset.length === 0 ? '' : `, and public development keys (${listInWords(unset)} unset)`;
  return `Expected in a demo, so warned about below: a sandbox register, not the real one${keys}.`;
}

/** The banner's last line: once it is printed, every process is ready. */
export const STOP_LINE = 'Stop everything with Ctrl-C.';

function jsonCurl(options: string, method: string, url: string, key: string, body: string, extraHeaders = ''): string {
  return `curl ${options} -X ${method} ${url} -H "X-API-Key: ${key}" -H "Content-Type: application/json"${extraHeaders} -d '${body}'`;
}

function verifyCurl(apiUrl: string, key: string, body: string, idempotencyKey?: string): string {
  const header = idempotencyKey ? ` -H "Idempotency-Key: ${idempotencyKey}"` : '';
  return jsonCurl('-i', 'POST', `${apiUrl}/v1/licences/verify`, key, body, header);
}

/**
 * A command that returns once a watched number's first re-check has recorded it Active. A change made before
 * that would be recorded as the starting state, and no event would come.
 */
function waitForFirstRecheck(apiUrl: string, key: string, licenceNumber: string): string {
  return `until curl -s "${apiUrl}/v1/watchlist?status=Active" -H "X-API-Key: ${key}" | grep -q ${licenceNumber}; do sleep 1; done; echo "${licenceNumber} re-checked"`;
}

/**
 * The monitoring walk-through: watch, a webhook to the demo's receiver, a change in the sandbox, the signed event.
 * Its commands work pasted one by one or all at once: step 3 waits for the first re-check.
 */
function monitoringSteps(apiUrl: string, key: string, sandboxUrl: string, receiverUrl: string): string[] {
  return [
    `# MONITORING (this demo re-checks watched numbers every ${DEMO_RECHECK_SECONDS} s; production: WATCH_RECHECK_SECONDS, a day).`,
    '# 1. Watch a licence (201; 200 when already watched):',
    jsonCurl('-i', 'PUT', `${apiUrl}/v1/watchlist/${DEMO_WATCHED}`, key, '{"reference":"guard-42"}'),
    "# 2. Point a webhook at the demo's receiver; the answer, with the signing secret shown only this once, goes to the receiver:",
    `${jsonCurl('-s', 'POST', `${apiUrl}/v1/webhooks`, key, `{"url":"${receiverUrl}/webhooks"}`)} | curl -s -X POST ${receiverUrl}/secret --data-binary @-`,
    `# 3. Wait for the first re-check (up to ${DEMO_RECHECK_SECONDS} s): it records the licence as it is now, so that a change after it is a change:`,
    waitForFirstRecheck(apiUrl, key, DEMO_WATCHED),
    '# 4. Revoke the licence in the sandbox register:',
    `curl -s -X PUT ${sandboxUrl}/__sandbox/licences/${DEMO_WATCHED} -H "Content-Type: application/json" -d '{"status":"Revoked"}'`,
    `# 5. Within ${DEMO_RECHECK_SECONDS} s the receiver prints the licence.status_changed event and its verified signature ("receiver | ...").`,
    '# 6. The same events, without a webhook:',
    `curl -s ${apiUrl}/v1/events -H "X-API-Key: ${key}"`,
  ];
}

/**
 * The register watch walk-through: a canary's holder surname changes in the sandbox, the signed operator alert,
 * readiness drifted, then the surname back and the acknowledgement.
 */
function registerWatchSteps(operatorsUrl: string, sandboxUrl: string, data: DemoData): string[] {
  const canary = `${sandboxUrl}/__sandbox/licences/${DEMO_CANARIES[0]}`;
  return [
    `# REGISTER WATCH (this demo looks its canary licences up every ${DEMO_CANARY_SECONDS} s; production: REGISTER_CANARY_SECONDS, 15 min).`,
    "# 1. The register changes a canary's holder surname, which a licence never does:",
    `curl -s -X PUT ${canary} -H "Content-Type: application/json" -d '{"surname":"SMITH"}'`,
    `# 2. Within ${DEMO_CANARY_SECONDS} s the receiver prints the signed operator alert register.canary_failed, and readiness says drifted (still 200):`,
    `until curl -s ${operatorsUrl}/health/ready | grep -q drifted; do sleep 1; done; curl -s ${operatorsUrl}/health/ready`,
    '# 3. The register puts it back; readiness stays drifted until an operator acknowledges the failure, with',
    `#    npm run admin -- canary acknowledge   (with this demo's DATABASE_URL, database ${data.database}, and REDIS_PREFIX=${data.redisPrefix})`,
    `curl -s -X PUT ${canary} -H "Content-Type: application/json" -d '{"surname":"JONES"}'`,
  ];
}

/** OLIVIA HUGHES, born 1990-04-12, at her Active licence: the holder check's MATCH and CONFIRMED. */
const DEMO_HOLDER = { licenceNumber: '1230112233445500', firstName: 'Olivia', surname: 'Hughes', dateOfBirth: '1990-04-12' };
/** A person the successor walk-through adds to the sandbox, and the card that replaces hers. */
const DEMO_SUCCESSOR = { old: '1400000000000018', new: '1400000000000026', firstName: 'SAM', surname: 'RIVERS', dateOfBirth: '1993-08-21' };

/** The holder checks: who holds the licence, by name and date of birth, and a search by name. */
function holderSteps(apiUrl: string, key: string): string[] {
  const { licenceNumber, firstName, surname, dateOfBirth } = DEMO_HOLDER;
  return [
    '# HOLDER CHECKS. The right name and date of birth: MATCH and CONFIRMED (200):',
    jsonCurl('-i', 'POST', `${apiUrl}/v1/licences/verify-holder`, key, JSON.stringify({ licenceNumber, firstName, surname, dateOfBirth })),
    "# Someone else's name on the same number: MISMATCH (200, the licence itself is fine):",
    jsonCurl('-i', 'POST', `${apiUrl}/v1/licences/verify-holder`, key, JSON.stringify({ licenceNumber, firstName: 'Jane', surname: 'Doe' })),
    '# Search by name: both of her licences, the Expired one and its Active successor (200):',
    jsonCurl('-i', 'POST', `${apiUrl}/v1/licences/search`, key, JSON.stringify({ surname, firstName })),
    '',
  ];
}

/** The successor walk-through, after monitoring's webhook: watch with the holder, replace the card, licence.replaced. */
function successorSteps(apiUrl: string, key: string, sandboxUrl: string): string[] {
  const { firstName, surname, dateOfBirth } = DEMO_SUCCESSOR;
  const card = (licenceNumber: string) =>
    JSON.stringify({
      licenceNumber,
      firstName,
      surname,
      dateOfBirth,
      role: 'Front Line',
      licenceSector: 'Door Supervision',
      expiryDate: '2028-08-21',
      status: 'Active',
    });
  const holder = { firstName: 'Sam', surname: 'Rivers', dateOfBirth };
  return [
    '# SUCCESSOR LICENCES. 1. A new person in the sandbox, watched with her holder details and followSuccessor:',
    `curl -s -X POST ${sandboxUrl}/__sandbox/licences -H "Content-Type: application/json" -d '${card(DEMO_SUCCESSOR.old)}'`,
    jsonCurl('-i', 'PUT', `${apiUrl}/v1/watchlist/${DEMO_SUCCESSOR.old}`, key, JSON.stringify({ reference: 'guard-43', holder, followSuccessor: true })),
    `# 2. After its first re-check (up to ${DEMO_RECHECK_SECONDS} s, waited for here), the card is replaced: a new Active licence, the old one Replaced:`,
    waitForFirstRecheck(apiUrl, key, DEMO_SUCCESSOR.old),
    `curl -s -X POST ${sandboxUrl}/__sandbox/licences -H "Content-Type: application/json" -d '${card(DEMO_SUCCESSOR.new)}'`,
    `curl -s -X PUT ${sandboxUrl}/__sandbox/licences/${DEMO_SUCCESSOR.old} -H "Content-Type: application/json" -d '{"status":"Replaced"}'`,
    `# 3. Within ${DEMO_RECHECK_SECONDS * 2} s the receiver prints licence.replaced; the watchlist shows the new number as guard-43:`,
    `curl -s ${apiUrl}/v1/watchlist -H "X-API-Key: ${key}"`,
  ];
}

/** Where the demo keeps its data, apart from `npm start`'s. */
export interface DemoData {
  database: string;
  redisPrefix: string;
}

/** The demo's banner: where answers come from, the keys, and curl commands that work as printed. */
export function demoBanner(
  apiUrl: string,
  { key, testKey }: { key: string; testKey: string },
  sandboxUrl: string,
  receiverUrl: string,
  data: DemoData,
  operatorsUrl = apiUrl,
): string[] {
  const slowBody = `{"licenceNumber":"'"$SLOW"'"}`;
  return [
    '================================ DEMO ================================',
    `Answers come from the register SANDBOX at ${sandboxUrl}, not the real register.`,
    `Demo data: database ${data.database}, Redis prefix ${data.redisPrefix} (npm start keeps its own).`,
    `Demo key (quota 100 per month): ${key}`,
    `Console: open ${apiUrl}/console and sign in with the demo key.`,
    `Demo test key (test mode: its own data and quota, never the live plan): ${testKey}`,
    '',
    '# FOUND (200):',
    verifyCurl(apiUrl, key, `{"licenceNumber":"${DEMO_FOUND}"}`),
    '',
    '# NOT_FOUND (404):',
    verifyCurl(apiUrl, key, `{"licenceNumber":"${DEMO_NOT_FOUND}"}`),
    '',
    `# A slow lookup: the sandbox answers numbers starting ${DEMO_SLOW_PREFIX} after ${DEMO_SLOW_LATENCY_MS / 1000} s.`,
    '# The first call answers 202 PENDING after 5 s; the retry with the same Idempotency-Key joins the same',
    '# lookup (X-Verification-Source: register) and answers its result, NOT_FOUND (404), about 3 s later.',
    `SLOW=${DEMO_SLOW_PREFIX}$(date +%s%N | cut -c8-19)`,
    verifyCurl(apiUrl, key, slowBody, 'demo-$SLOW'),
    verifyCurl(apiUrl, key, slowBody, 'demo-$SLOW'),
    '',
    '# Quota (200):',
    `curl -s ${apiUrl}/v1/quota/usage -H "X-API-Key: ${key}"`,
    '',
    '# TEST MODE. The same FOUND with the test key: answered with Verification-Mode: test, counted on the test side only:',
    verifyCurl(apiUrl, testKey, `{"licenceNumber":"${DEMO_FOUND}"}`),
    `curl -s ${apiUrl}/v1/quota/usage -H "X-API-Key: ${testKey}"`,
    '',
    ...holderSteps(apiUrl, key),
    ...monitoringSteps(apiUrl, key, sandboxUrl, receiverUrl),
    '',
    ...registerWatchSteps(operatorsUrl, sandboxUrl, data),
    '',
    ...successorSteps(apiUrl, key, sandboxUrl),
    '=======================================================================',
  ];
}
