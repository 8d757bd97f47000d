/** Numbers the demo's sandbox answers slowly: `1077` then 12 digits, so each paste asks a new number. */
export const DEMO_SLOW_PREFIX = '1077';
export const DEMO_SLOW_LATENCY_MS = 8000;
const DEMO_FOUND = '1011001544208079';
const DEMO_NOT_FOUND = '1888000000000000';

/** The address to show for a listening address: a wildcard bind is reached on loopback. */
export function displayUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

export function startBanner(apiUrl: string, workers: number): string[] {
  return [
    `API          ${apiUrl}`,
    `Swagger UI   ${apiUrl}/docs`,
    `Metrics      ${apiUrl}/metrics`,
    `Workers      ${workers}`,
    'Stop everything with Ctrl-C.',
  ];
}

function verifyCurl(apiUrl: string, key: string, body: string, idempotencyKey?: string): string {
  const header = idempotencyKey ? ` -H "Idempotency-Key: ${idempotencyKey}"` : '';
  return (
    `curl -i -X POST ${apiUrl}/v1/licences/verify -H "X-API-Key: ${key}" -H "Content-Type: application/json"` +
    `${header} -d '${body}'`
  );
}

/** The demo's banner: where answers come from, the key, and curl commands that work as printed. */
export function demoBanner(apiUrl: string, key: string, sandboxUrl: string): string[] {
  const slowBody = `{"licenceNumber":"'"$SLOW"'"}`;
  return [
    '================================ DEMO ================================',
    `Answers come from the register SANDBOX at ${sandboxUrl}, not the real register.`,
    `Demo key (quota 100 per month): ${key}`,
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
    `# Quota: curl ${apiUrl}/v1/quota/usage -H "X-API-Key: ${key}"`,
    '=======================================================================',
  ];
}
