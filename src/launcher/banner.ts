/** Numbers the demo's sandbox answers slowly: `1077` then 12 digits, so each paste asks a new number. */
export const DEMO_SLOW_PREFIX = '1077';
export const DEMO_SLOW_LATENCY_MS = 8000;
const DEMO_FOUND = '1011001544208079';
const DEMO_NOT_FOUND = '1888000000000000';
/** ANNA-MARIE D'ARCY, Active: the monitoring walk-through revokes her licence, not the FOUND example's. */
const DEMO_WATCHED = '1074556677889900';
/** The demo's re-check cycle: a change shows up within seconds instead of the production day. */
export const DEMO_RECHECK_SECONDS = 5;

/** The address to show for a listening address: a wildcard bind is reached on loopback. */
export function displayUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** `operatorsUrl`: where the API serves /metrics, its own address unless OPERATOR_PORT moved it. */
export function startBanner(apiUrl: string, operatorsUrl: string, registerUrl: string, workers: number): string[] {
  return [
    `API          ${apiUrl}`,
    `Swagger UI   ${apiUrl}/docs`,
    `Console      ${apiUrl}/console`,
    `Metrics      ${operatorsUrl}/metrics`,
    `Register     ${registerUrl}`,
    `Workers      ${workers}`,
  ];
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

/** The monitoring walk-through: watch, a webhook to the demo's receiver, a change in the sandbox, the signed event. */
function monitoringSteps(apiUrl: string, key: string, sandboxUrl: string, receiverUrl: string): string[] {
  return [
    `# MONITORING (this demo re-checks watched numbers every ${DEMO_RECHECK_SECONDS} s; production: WATCH_RECHECK_SECONDS, a day).`,
    '# 1. Watch a licence (201; 200 when already watched). Its first re-check records it as it is now:',
    jsonCurl('-i', 'PUT', `${apiUrl}/v1/watchlist/${DEMO_WATCHED}`, key, '{"reference":"guard-42"}'),
    "# 2. Point a webhook at the demo's receiver; the answer, with the signing secret shown only this once, goes to the receiver:",
    `${jsonCurl('-s', 'POST', `${apiUrl}/v1/webhooks`, key, `{"url":"${receiverUrl}/webhooks"}`)} | curl -s -X POST ${receiverUrl}/secret --data-binary @-`,
    '# 3. Revoke the licence in the sandbox register:',
    `curl -s -X PUT ${sandboxUrl}/__sandbox/licences/${DEMO_WATCHED} -H "Content-Type: application/json" -d '{"status":"Revoked"}'`,
    `# 4. Within ${DEMO_RECHECK_SECONDS} s the receiver prints the licence.status_changed event and its verified signature ("receiver | ...").`,
    '# 5. The same events, without a webhook:',
    `curl -s ${apiUrl}/v1/events -H "X-API-Key: ${key}"`,
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
    JSON.stringify({ licenceNumber, firstName, surname, dateOfBirth, role: 'Front Line', licenceSector: 'Door Supervision', expiryDate: '2028-08-21', status: 'Active' });
  const holder = { firstName: 'Sam', surname: 'Rivers', dateOfBirth };
  return [
    '# SUCCESSOR LICENCES. 1. A new person in the sandbox, watched with her holder details and followSuccessor:',
    `curl -s -X POST ${sandboxUrl}/__sandbox/licences -H "Content-Type: application/json" -d '${card(DEMO_SUCCESSOR.old)}'`,
    jsonCurl('-i', 'PUT', `${apiUrl}/v1/watchlist/${DEMO_SUCCESSOR.old}`, key, JSON.stringify({ reference: 'guard-43', holder, followSuccessor: true })),
    `# 2. After its first re-check (${DEMO_RECHECK_SECONDS} s), the card is replaced: a new Active licence, the old one Replaced:`,
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

/** The demo's banner: where answers come from, the key, and curl commands that work as printed. */
export function demoBanner(apiUrl: string, key: string, sandboxUrl: string, receiverUrl: string, data: DemoData): string[] {
  const slowBody = `{"licenceNumber":"'"$SLOW"'"}`;
  return [
    '================================ DEMO ================================',
    `Answers come from the register SANDBOX at ${sandboxUrl}, not the real register.`,
    `Demo data: database ${data.database}, Redis prefix ${data.redisPrefix} (npm start keeps its own).`,
    `Demo key (quota 100 per month): ${key}`,
    `Console: open ${apiUrl}/console and sign in with the demo key.`,
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
    ...holderSteps(apiUrl, key),
    ...monitoringSteps(apiUrl, key, sandboxUrl, receiverUrl),
    '',
    ...successorSteps(apiUrl, key, sandboxUrl),
    '=======================================================================',
  ];
}
