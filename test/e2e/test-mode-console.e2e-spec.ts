import { Browser, Page } from 'playwright-core';
import { launchChromium, seriousAxeViolations, signInToConsole } from '../support/browser';
import { request } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

const BANNER = 'Test mode: signed in with a test key. Answers come from the sandbox register, and nothing here touches your live data or quota.';
const PAGES = ['overview', 'verify', 'history', 'rosters', 'watchlist', 'webhooks', 'keys'];

/** The console in a browser, signed in with a test key and with a live one: the Test mode banner and the Keys page's switch. */
describe('the console in test mode', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestApp();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t.close();
  });

  async function signedIn(key: string): Promise<Page> {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signInToConsole(page, t.baseUrl, key);
    return page;
  }

  /** The banner's text on each console page, or null where there is none. */
  async function banners(page: Page): Promise<(string | null)[]> {
    const found: (string | null)[] = [];
    for (const name of PAGES) {
      await page.goto(`${t.baseUrl}/console/${name}`);
      const banner = page.getByRole('status').filter({ hasText: 'Test mode' });
      found.push((await banner.count()) === 1 ? (await banner.innerText()).trim() : null);
    }
    return found;
  }

  it('shows the Test mode banner on every page to a test key, and none to a live key', async () => {
    const live = await t.createKey({ name: 'Compliance desk' });
    const test = await t.createKey({ userId: live.userId, test: true, name: 'Integration' });
    const testPage = await signedIn(test.key);
    expect(await banners(testPage)).toEqual(PAGES.map(() => BANNER));
    // Readable by everyone: axe-core finds no serious or critical violation on a page with the banner.
    await testPage.goto(`${t.baseUrl}/console/overview`);
    expect(await seriousAxeViolations(testPage)).toEqual([]);
    expect(await banners(await signedIn(live.key))).toEqual(PAGES.map(() => null));
  });

  it('creates a test key from the Keys page switch, marked test in the list, and a live key without it', async () => {
    const live = await t.createKey({ name: 'Compliance desk' });
    const page = await signedIn(live.key);
    await page.goto(`${t.baseUrl}/console/keys`);
    await page.getByLabel('Name').fill('Staging');
    await page.getByRole('checkbox', { name: /Test key/ }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const testKey = (await page.locator('#created-key').innerText()).trim();
    expect(testKey).toMatch(/^lvs_test_[A-Za-z0-9_-]{43}$/);
    const usage = await request(t.baseUrl, 'GET', '/v1/quota/usage', { headers: { 'x-api-key': testKey } });
    expect([usage.status, usage.headers.get('verification-mode')]).toEqual([200, 'test']);

    await page.goto(`${t.baseUrl}/console/keys`);
    await page.getByLabel('Name').fill('Second live');
    await page.getByRole('button', { name: 'Create key' }).click();
    expect((await page.locator('#created-key').innerText()).trim()).toMatch(/^lvs_[A-Za-z0-9_-]{43}$/);
    const rows = await page.locator('tr[data-key-id]').allInnerTexts();
    expect(rows.map((row) => [row.split('\t')[0].trim(), /\btest\b/.test(row.split('\t')[0])])).toEqual([
      ['Compliance desk this session', false],
      ['Staging test', true],
      ['Second live', false],
    ]);

    // A test key's session creates test keys only: the switch is not offered.
    const testPage = await signedIn(testKey);
    await testPage.goto(`${t.baseUrl}/console/keys`);
    await expect(testPage.getByRole('checkbox', { name: /Test key/ }).count()).resolves.toBe(0);
    await testPage.getByLabel('Name').fill('Child');
    await testPage.getByRole('button', { name: 'Create key' }).click();
    expect((await testPage.locator('#created-key').innerText()).trim()).toMatch(/^lvs_test_[A-Za-z0-9_-]{43}$/);
  });
});
