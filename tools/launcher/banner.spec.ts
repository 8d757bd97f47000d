import { demoBanner, demoWarningsLine, displayUrl, startBanner } from './banner';

describe('displayUrl', () => {
  it.each([
    ['0.0.0.0', 3000, 'http://127.0.0.1:3000'],
    ['::', 3000, 'http://127.0.0.1:3000'],
    ['127.0.0.1', 8080, 'http://127.0.0.1:8080'],
    ['::1', 3000, 'http://[::1]:3000'],
    ['api.internal', 3000, 'http://api.internal:3000'],
  ])('shows %s:%i as %s', (host, port, url) => {
    expect(displayUrl(host, port)).toBe(url);
  });
});

describe('startBanner', () => {
  it('gives the API, Swagger UI and metrics addresses, and the register asked', () => {
    expect(startBanner('http://127.0.0.1:3000', 'http://127.0.0.1:3000', 'https://services.sia.homeoffice.gov.uk', null, 2)).toEqual([
      'API          http://127.0.0.1:3000',
      'Swagger UI   http://127.0.0.1:3000/docs',
      'Console      http://127.0.0.1:3000/console',
      'Metrics      http://127.0.0.1:3000/metrics',
      'Register     https://services.sia.homeoffice.gov.uk',
      'Workers      2',
    ]);
  });

  it('says under the register why it cannot be reached, and what partners meet meanwhile', () => {
    const lines = startBanner('http://127.0.0.1:3000', 'http://127.0.0.1:3000', 'https://register.example', 'DNS failure (ENOTFOUND)', 1);
    expect(lines.slice(4, 7)).toEqual([
      'Register     https://register.example',
      '             CANNOT BE REACHED: DNS failure (ENOTFOUND). Verifications answer 503 until it can; check REGISTER_URL and the network.',
      'Workers      1',
    ]);
  });

  it("shows metrics on the operators' listener when OPERATOR_PORT moved them there", () => {
    expect(startBanner('http://127.0.0.1:3000', 'http://127.0.0.1:9100', 'https://services.sia.homeoffice.gov.uk', null, 1)).toContain(
      'Metrics      http://127.0.0.1:9100/metrics',
    );
  });
});

describe('demoBanner', () => {
  const lines = demoBanner('http://127.0.0.1:3000', { key: 'lvs_key', testKey: 'lvs_test_key' }, 'http://127.0.0.1:4010', 'http://127.0.0.1:4020', {
    database: 'licence_verification_demo',
    redisPrefix: 'lvs-demo',
  });

  it('says the answers come from the sandbox, and where the demo keeps its data', () => {
    expect(lines.slice(1, 3)).toEqual([
      'Answers come from the register SANDBOX at http://127.0.0.1:4010, not the real register.',
      'Demo data: database licence_verification_demo, Redis prefix lvs-demo (npm start keeps its own).',
    ]);
  });

  it('prints the demo test key beside the live one, and a verification with it that shows its mode', () => {
    const keyLine = lines.indexOf('Demo key (quota 100 per month): lvs_key');
    expect(lines[keyLine + 2]).toBe('Demo test key (test mode: its own data and quota, never the live plan): lvs_test_key');
    const testMode = lines.findIndex((line) => line.startsWith('# TEST MODE.'));
    expect(lines[testMode + 1]).toContain('-H "X-API-Key: lvs_test_key"');
    expect(lines[testMode + 2]).toBe('curl -s http://127.0.0.1:3000/v1/quota/usage -H "X-API-Key: lvs_test_key"');
  });

  it('says where the console is and to sign in there with the demo key', () => {
    const keyLine = lines.indexOf('Demo key (quota 100 per month): lvs_key');
    expect(lines[keyLine + 1]).toBe('Console: open http://127.0.0.1:3000/console and sign in with the demo key.');
  });

  it('prints every command ready to paste: no command line is commented out', () => {
    expect(lines.filter((line) => /^#.*curl /.test(line))).toEqual([]);
    expect(lines).toContain('curl -s http://127.0.0.1:3000/v1/quota/usage -H "X-API-Key: lvs_key"');
  });

  it('prints the FOUND and NOT_FOUND commands with the key', () => {
    expect(lines).toContain(
      `curl -i -X POST http://127.0.0.1:3000/v1/licences/verify -H "X-API-Key: lvs_key" -H "Content-Type: application/json" -d '{"licenceNumber":"1011001544208079"}'`,
    );
    expect(lines).toContain(
      `curl -i -X POST http://127.0.0.1:3000/v1/licences/verify -H "X-API-Key: lvs_key" -H "Content-Type: application/json" -d '{"licenceNumber":"1888000000000000"}'`,
    );
  });

  it('prints the slow call twice with one Idempotency-Key, after a fresh slow number', () => {
    const slow = lines.findIndex((line) => line.startsWith('SLOW='));
    expect(lines[slow]).toBe('SLOW=1077$(date +%s%N | cut -c8-19)');
    const call = `curl -i -X POST http://127.0.0.1:3000/v1/licences/verify -H "X-API-Key: lvs_key" -H "Content-Type: application/json" -H "Idempotency-Key: demo-$SLOW" -d '{"licenceNumber":"'"$SLOW"'"}'`;
    expect(lines.slice(slow + 1, slow + 3)).toEqual([call, call]);
  });

  it('walks through monitoring: watch, a webhook to the receiver with its secret piped there, the first re-check waited for, a change in the sandbox', () => {
    const at = lines.findIndex((line) => line.startsWith('# MONITORING'));
    const end = lines.findIndex((line) => line.startsWith('# REGISTER WATCH'));
    expect(lines.slice(at + 1, end).filter((line) => !line.startsWith('#'))).toEqual([
      `curl -i -X PUT http://127.0.0.1:3000/v1/watchlist/1074556677889900 -H "X-API-Key: lvs_key" -H "Content-Type: application/json" -d '{"reference":"guard-42"}'`,
      `curl -s -X POST http://127.0.0.1:3000/v1/webhooks -H "X-API-Key: lvs_key" -H "Content-Type: application/json" -d '{"url":"http://127.0.0.1:4020/webhooks"}' | curl -s -X POST http://127.0.0.1:4020/secret --data-binary @-`,
      `until curl -s "http://127.0.0.1:3000/v1/watchlist?status=Active" -H "X-API-Key: lvs_key" | grep -q 1074556677889900; do sleep 1; done; echo "1074556677889900 re-checked"`,
      `curl -s -X PUT http://127.0.0.1:4010/__sandbox/licences/1074556677889900 -H "Content-Type: application/json" -d '{"status":"Revoked"}'`,
      'curl -s http://127.0.0.1:3000/v1/events -H "X-API-Key: lvs_key"',
      '',
    ]);
  });

  it('prints a holder check with MATCH and CONFIRMED, then a MISMATCH, and a search by name', () => {
    const at = lines.findIndex((line) => line.startsWith('# HOLDER CHECKS'));
    expect(lines.slice(at, at + 6).filter((line) => line.startsWith('curl'))).toEqual([
      `curl -i -X POST http://127.0.0.1:3000/v1/licences/verify-holder -H "X-API-Key: lvs_key" -H "Content-Type: application/json" -d '{"licenceNumber":"1230112233445500","firstName":"Olivia","surname":"Hughes","dateOfBirth":"1990-04-12"}'`,
      `curl -i -X POST http://127.0.0.1:3000/v1/licences/verify-holder -H "X-API-Key: lvs_key" -H "Content-Type: application/json" -d '{"licenceNumber":"1230112233445500","firstName":"Jane","surname":"Doe"}'`,
      `curl -i -X POST http://127.0.0.1:3000/v1/licences/search -H "X-API-Key: lvs_key" -H "Content-Type: application/json" -d '{"surname":"Hughes","firstName":"Olivia"}'`,
    ]);
  });

  it('walks through register watch: a canary surname changed in the sandbox, readiness drifted, the surname back', () => {
    const at = lines.findIndex((line) => line.startsWith('# REGISTER WATCH'));
    const section = lines.slice(at, lines.indexOf('', at));
    expect(section.filter((line) => !line.startsWith('#'))).toEqual([
      `curl -s -X PUT http://127.0.0.1:4010/__sandbox/licences/1052334455667788 -H "Content-Type: application/json" -d '{"surname":"SMITH"}'`,
      'until curl -s http://127.0.0.1:3000/health/ready | grep -q drifted; do sleep 1; done; curl -s http://127.0.0.1:3000/health/ready',
      `curl -s -X PUT http://127.0.0.1:4010/__sandbox/licences/1052334455667788 -H "Content-Type: application/json" -d '{"surname":"JONES"}'`,
    ]);
    expect(section).toContain(
      "#    npm run admin -- canary acknowledge   (with this demo's DATABASE_URL, database licence_verification_demo, and REDIS_PREFIX=lvs-demo)",
    );
  });

  it('walks through a successor: a new person watched with followSuccessor, the card replaced, the watchlist', () => {
    const at = lines.findIndex((line) => line.startsWith('# SUCCESSOR'));
    const steps = lines.slice(at).filter((line) => line.startsWith('curl'));
    expect(steps).toHaveLength(5);
    // The replacement waits for the first re-check, which records the old card as Active.
    const replaceAt = lines.indexOf(steps[2]);
    expect(lines[replaceAt - 1]).toMatch(
      /^until curl -s "http:\/\/127\.0\.0\.1:3000\/v1\/watchlist\?status=Active" .* grep -q 1400000000000018; do sleep 1; done;/,
    );
    expect(steps[1]).toContain(`/v1/watchlist/1400000000000018`);
    expect(steps[1]).toContain('"followSuccessor":true');
    expect(steps[3]).toBe(
      `curl -s -X PUT http://127.0.0.1:4010/__sandbox/licences/1400000000000018 -H "Content-Type: application/json" -d '{"status":"Replaced"}'`,
    );
    expect(lines.at(-1)).toBe('=======================================================================');
  });
});

describe('demoWarningsLine', () => {
  it('names the sandbox and the development keys left unset', () => {
    expect(demoWarningsLine({ WEBHOOK_SECRET_KEY: 'ab'.repeat(32), RECEIPT_SIGNING_KEYS: 'A'.repeat(43) })).toBe(
      'Expected in a demo, so warned about below: a sandbox register, not the real one, and public development keys (HOLDER_DATA_KEY unset).',
    );
    expect(demoWarningsLine({})).toBe(
      'Expected in a demo, so warned about below: a sandbox register, not the real one, and public development keys (HOLDER_DATA_KEY, WEBHOOK_SECRET_KEY and RECEIPT_SIGNING_KEYS unset).',
    );
  });

  it('names the sandbox alone when every key is set', () => {
    expect(demoWarningsLine({ HOLDER_DATA_KEY: 'cd'.repeat(32), WEBHOOK_SECRET_KEY: 'ab'.repeat(32), RECEIPT_SIGNING_KEYS: 'A'.repeat(43) })).toBe(
      'Expected in a demo, so warned about below: a sandbox register, not the real one.',
    );
  });
});
