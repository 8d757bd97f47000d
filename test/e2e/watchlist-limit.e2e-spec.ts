import { FormClient } from '../support/console-client';
import { request, TestResponse } from '../support/http';
import { runAdminCli } from '../support/admin-cli';
import { startTestApp, TestApp } from '../support/test-app';
import { unknownNumber } from '../support/until';

const WATCHLIST_FULL = { code: 'WATCHLIST_FULL', message: 'Watchlist is full; remove entries or ask for a larger limit' };
const QUOTA_EXCEEDED = { code: 'QUOTA_EXCEEDED', message: 'Monthly verification quota exceeded; upgrade the plan to continue' };
// The default cap of this suite's API: small, so that a watchlist fills with a few requests.
const DEFAULT_CAP = 4;

/**
 * The cap on one user's watch entries (WATCH_MAX_ENTRIES_PER_USER, or the user's own from `admin set-watch-limit`):
 * a request that would add entries past it is refused whole, whichever way it comes and however many come at once.
 */
describe('the watchlist cap', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { WATCH_MAX_ENTRIES_PER_USER: String(DEFAULT_CAP) } });
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (apiKey: string, method: string, path: string, body?: object): Promise<TestResponse> =>
    request(t.baseUrl, method, path, { headers: { 'x-api-key': apiKey }, body });
  const watch = (apiKey: string, licenceNumber: string, body?: object) => call(apiKey, 'PUT', `/v1/watchlist/${licenceNumber}`, body);
  const batchAdd = (apiKey: string, items: { licenceNumber: string; reference?: string }[]) => call(apiKey, 'POST', '/v1/watchlist:batchAdd', { items });

  async function setWatchLimit(userId: string, limit: string): Promise<void> {
    const set = await runAdminCli(t.env, 'set-watch-limit', userId, limit);
    expect([set.status, set.stderr]).toEqual([0, '']);
    expect(JSON.parse(set.stdout)).toEqual({ userId, watchLimit: limit === 'default' ? null : Number(limit) });
  }

  /** Everything a refused addition must leave as it was: the user's entries, its ledger, and the numbers' shared states. */
  async function footprint(userId: string) {
    // One query at a time: the test's client runs them in turn anyway.
    const rows = async (text: string, values: unknown[] = []) => (await t.db.query(text, values)).rows;
    return {
      entries: await rows(
        `SELECT licence_number, reference, holder, date_of_birth_sealed, follow_successor, added_at
           FROM watch_entries WHERE user_id = $1 ORDER BY licence_number`,
        [userId],
      ),
      charges: await rows('SELECT period, licence_number, charge_id FROM quota_charges WHERE user_id = $1 ORDER BY licence_number', [userId]),
      usage: await rows('SELECT period, used FROM quota_usage WHERE user_id = $1 ORDER BY period', [userId]),
      states: await rows('SELECT licence_number, unwatched_since FROM licence_states ORDER BY licence_number'),
    };
  }

  const watchedNumbers = async (userId: string): Promise<string[]> =>
    (await t.db.query('SELECT licence_number FROM watch_entries WHERE user_id = $1 ORDER BY 1', [userId])).rows.map((row) => row.licence_number);

  it('answers 409 WATCHLIST_FULL to a new number past the cap, before the quota, and changes nothing; watched entries still update', async () => {
    // A quota of exactly the cap: once full, the user is out of quota too, and the cap must answer first.
    const { key, userId } = await t.createKey({ quota: DEFAULT_CAP });
    const watched = Array.from({ length: DEFAULT_CAP }, (_, index) => unknownNumber(61, index));
    const added = await batchAdd(
      key,
      watched.map((licenceNumber, index) => ({ licenceNumber, reference: `ref-${index}` })),
    );
    expect([added.status, added.body]).toEqual([200, { added: DEFAULT_CAP, updated: 0 }]);
    const before = await footprint(userId);
    expect(before.entries.map((row) => row.licence_number)).toEqual(watched);
    expect(before.usage.map((row) => row.used)).toEqual([DEFAULT_CAP]);

    const extra = unknownNumber(61, 100);
    const refusals = [
      await watch(key, extra),
      await watch(key, extra, { reference: 'new', holder: { firstName: 'Jane', surname: 'Doe', dateOfBirth: '1980-01-01' }, followSuccessor: true }),
      // A watched number with a new reference, beside a new number: the whole request is refused, the reference kept.
      await batchAdd(key, [
        { licenceNumber: watched[0], reference: 'changed' },
        { licenceNumber: extra, reference: 'new' },
      ]),
    ];
    for (const refused of refusals) {
      expect([refused.status, refused.body]).toEqual([409, WATCHLIST_FULL]);
      expect(refused.text).toBe(JSON.stringify(WATCHLIST_FULL));
    }
    expect(await footprint(userId)).toEqual(before);

    // Updating what is already watched needs no room: the PUT and batchAdd of watched numbers alone pass at the cap.
    const updated = await watch(key, watched[1], { reference: 'updated' });
    expect([updated.status, (updated.body as { reference: string }).reference]).toEqual([200, 'updated']);
    const again = await batchAdd(
      key,
      watched.map((licenceNumber) => ({ licenceNumber, reference: 'again' })),
    );
    expect([again.status, again.body]).toEqual([200, { added: 0, updated: DEFAULT_CAP }]);
    const after = await footprint(userId);
    expect(after.entries.map((row) => row.reference)).toEqual(watched.map(() => 'again'));
    expect([after.charges, after.usage, after.states]).toEqual([before.charges, before.usage, before.states]);

    // With room made by a larger cap, the same number meets the quota, which has none left.
    await setWatchLimit(userId, String(DEFAULT_CAP + 1));
    const overQuota = await watch(key, extra);
    expect([overQuota.status, overQuota.body]).toEqual([429, QUOTA_EXCEEDED]);
    expect(await watchedNumbers(userId)).toEqual(watched);
  });

  it('follows `admin set-watch-limit`: a larger cap lets more in, `default` returns to the setting, and removing entries makes room', async () => {
    const { key, userId } = await t.createKey();
    const numbers = Array.from({ length: DEFAULT_CAP + 3 }, (_, index) => unknownNumber(62, index));
    expect(
      (
        await batchAdd(
          key,
          numbers.slice(0, DEFAULT_CAP).map((licenceNumber) => ({ licenceNumber })),
        )
      ).body,
    ).toEqual({
      added: DEFAULT_CAP,
      updated: 0,
    });
    expect((await watch(key, numbers[DEFAULT_CAP])).body).toEqual(WATCHLIST_FULL);

    await setWatchLimit(userId, String(DEFAULT_CAP + 2));
    expect((await t.db.query('SELECT watch_limit FROM users WHERE id = $1', [userId])).rows).toEqual([{ watch_limit: DEFAULT_CAP + 2 }]);
    expect((await watch(key, numbers[DEFAULT_CAP])).status).toBe(201);
    // One more fits, two do not: a batch is all or nothing.
    expect(
      (
        await batchAdd(
          key,
          numbers.slice(DEFAULT_CAP + 1).map((licenceNumber) => ({ licenceNumber })),
        )
      ).body,
    ).toEqual(WATCHLIST_FULL);
    expect((await watch(key, numbers[DEFAULT_CAP + 1])).status).toBe(201);
    expect(await watchedNumbers(userId)).toEqual(numbers.slice(0, DEFAULT_CAP + 2));

    // Back to the default, below what is watched now: nothing new fits until enough entries are removed.
    await setWatchLimit(userId, 'default');
    const last = numbers[DEFAULT_CAP + 2];
    expect((await watch(key, last)).body).toEqual(WATCHLIST_FULL);
    expect((await watch(key, numbers[0], { reference: 'still mine' })).status).toBe(200);
    for (const licenceNumber of numbers.slice(0, 2)) expect((await call(key, 'DELETE', `/v1/watchlist/${licenceNumber}`)).status).toBe(204);
    expect((await watch(key, last)).body).toEqual(WATCHLIST_FULL);
    expect((await call(key, 'DELETE', `/v1/watchlist/${numbers[2]}`)).status).toBe(204);
    expect((await watch(key, last)).status).toBe(201);
    expect(await watchedNumbers(userId)).toEqual([...numbers.slice(3, DEFAULT_CAP + 2), last]);

    // A cap of 0 watches nothing new.
    await setWatchLimit(userId, '0');
    expect((await watch(key, unknownNumber(62, 99))).body).toEqual(WATCHLIST_FULL);
    const unknownUser = await runAdminCli(t.env, 'set-watch-limit', '00000000-0000-4000-8000-000000000000', '5');
    expect([unknownUser.status, unknownUser.stdout, unknownUser.stderr.trim()]).toEqual([2, '', 'No user 00000000-0000-4000-8000-000000000000']);
  });

  it('never lets concurrent imports or watches pass the cap together, and charges only what was added', async () => {
    const { key, userId } = await t.createKey({ quota: 1000 });
    await setWatchLimit(userId, '10');
    // Five imports of four new numbers each, at once: whatever the order, exactly two fit (4 + 4 <= 10 < 4 + 4 + 4).
    const imports = Array.from({ length: 5 }, (_, run) => Array.from({ length: 4 }, (_, index) => unknownNumber(63, run * 10 + index)));
    const answers = await Promise.all(
      imports.map((numbers) =>
        batchAdd(
          key,
          numbers.map((licenceNumber) => ({ licenceNumber })),
        ),
      ),
    );
    const accepted = imports.filter((_, run) => answers[run].status === 200);
    expect(answers.map((answer) => answer.body).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
      { added: 4, updated: 0 },
      { added: 4, updated: 0 },
      WATCHLIST_FULL,
      WATCHLIST_FULL,
      WATCHLIST_FULL,
    ]);
    const winners = accepted.flat().sort();
    expect(await watchedNumbers(userId)).toEqual(winners);
    const ledger = await footprint(userId);
    expect(ledger.charges.map((row) => row.licence_number)).toEqual(winners);
    expect(ledger.usage.map((row) => row.used)).toEqual([8]);

    // Twelve single watches at once for the last two places: exactly two are added.
    const singles = Array.from({ length: 12 }, (_, index) => unknownNumber(64, index));
    const watches = await Promise.all(singles.map((licenceNumber) => watch(key, licenceNumber)));
    expect(watches.map((answer) => answer.status).sort()).toEqual([201, 201, ...Array(10).fill(409)]);
    for (const refused of watches.filter((answer) => answer.status === 409)) expect(refused.body).toEqual(WATCHLIST_FULL);
    const added = singles.filter((_, index) => watches[index].status === 201);
    expect(await watchedNumbers(userId)).toEqual([...winners, ...added].sort());
    const charged = await footprint(userId);
    expect(charged.charges.map((row) => row.licence_number)).toEqual([...winners, ...added].sort());
    expect(charged.usage.map((row) => row.used)).toEqual([10]);
  });

  it("refuses the console's watch form and import alike, with the same body and nothing changed", async () => {
    const { key, userId } = await t.createKey();
    const watched = Array.from({ length: DEFAULT_CAP }, (_, index) => unknownNumber(65, index));
    expect(
      (
        await batchAdd(
          key,
          watched.map((licenceNumber) => ({ licenceNumber, reference: 'api' })),
        )
      ).status,
    ).toBe(200);
    const before = await footprint(userId);
    const staff = new FormClient(t.baseUrl);
    expect((await staff.signIn(key)).status).toBe(303);

    const extra = unknownNumber(65, 100);
    const form = await staff.send('POST', '/console/watchlist', { _csrf: await staff.tokenOf('/console/watchlist'), licenceNumber: extra });
    const imported = await staff.uploadCsv(
      '/console/watchlist/import',
      '/console/watchlist',
      `licenceNumber,reference\n${watched[0]},console\n${extra},console`,
    );
    for (const refused of [form, imported]) {
      expect(refused.status).toBe(409);
      expect(await refused.json()).toEqual(WATCHLIST_FULL);
    }
    expect(await footprint(userId)).toEqual(before);

    const update = await staff.uploadCsv('/console/watchlist/import', '/console/watchlist', `licenceNumber,reference\n${watched[0]},console`);
    expect([update.status, await update.json()]).toEqual([200, { added: 0, updated: 1 }]);
  });
});
