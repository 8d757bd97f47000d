import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../support/browser';
import { startTestApp, TestApp } from '../support/test-app';

describe('Swagger UI in a headless browser', () => {
  let t: TestApp;
  let profile: string;
  let browser: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    t = await startTestApp();
    profile = mkdtempSync(join(tmpdir(), 'lvs-chromium-'));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1280, height: 2400 },
    });
    page = await browser.newPage();
    await page.goto(`${t.baseUrl}/docs`);
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(profile, { recursive: true, force: true });
    await t.close();
  });

  it('names the service in the page title and lists both operations under their tags', async () => {
    expect(await page.title()).toBe('Licence Verification Service API');
    await page.locator('#operations-verification-verifyLicence').waitFor();
    await expect(page.locator('#operations-quota-getQuotaUsage').count()).resolves.toBe(1);
    await expect(page.locator('.information-container .title').innerText()).resolves.toContain('Licence Verification Service');
  });

  it.each([
    ['200', 'FOUND', '"surname": "DOE"'],
    ['202', 'PENDING', '"checkedAt": null'],
    ['404', 'NOT_FOUND', '"licence": null'],
    ['409', 'TOO_MANY_RESULTS', '"licence": null'],
  ])('shows the %s example of verify with status %s', async (code, status, detail) => {
    const operation = page.locator('#operations-verification-verifyLicence');
    if (!(await operation.locator('.opblock-body').isVisible())) await operation.locator('.opblock-summary').click();
    const example = operation.locator(`tr.response[data-code="${code}"] .highlight-code`);
    const text = await example.innerText();
    expect(text).toContain(`"status": "${status}"`);
    expect(text).toContain(detail);
    for (const other of ['FOUND', 'PENDING', 'NOT_FOUND', 'TOO_MANY_RESULTS'].filter((value) => value !== status)) {
      expect(text).not.toContain(`"status": "${other}"`);
    }
  });

  it('shows the real message of each bad request among the 400 examples', async () => {
    const badRequest = page.locator('#operations-verification-verifyLicence tr.response[data-code="400"]');
    await expect(badRequest.locator('.highlight-code').innerText()).resolves.toContain('"message": "Licence number must be 16 digits"');
    const choices = await badRequest.locator('select.examples-select-element option').allInnerTexts();
    expect(choices).toEqual(expect.arrayContaining(['Licence number must be 16 digits', 'Idempotency-Key must be 1 to 255 visible ASCII characters']));
  });
});
