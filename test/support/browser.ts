import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';

// Debian's Chromium (.ci/run installs it when missing); nothing is downloaded.
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
}

/** Signs in to the console with an API key, on its sign-in form, and waits for the overview. */
export async function signInToConsole(page: Page, baseUrl: string, key: string): Promise<void> {
  await page.goto(`${baseUrl}/console`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in with the key' }).click();
  await page.waitForURL(`${baseUrl}/console/overview`);
}

/** The ids of the serious and critical violations axe-core finds on the page as it stands. */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, not as a page script, so the page's CSP does not apply to it.
  await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate<{ id: string; impact: string }[]>(
    'axe.run().then((result) => result.violations.map(({ id, impact }) => ({ id, impact })))',
  );
  return found.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id);
}

/** The widths every console page is checked at: a phone's and a desktop's. */
export const PAGE_WIDTHS = [375, 1280] as const;

/** A browser profile of its own (its own cookies) at 1280 px, confirming every form's question. */
export async function openProfile(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on('dialog', (dialog) => void dialog.accept());
  return { context, page };
}

/**
 * A browser profile (openProfile) with a virtual platform authenticator, through the DevTools protocol's WebAuthn
 * domain: it holds discoverable passkeys and verifies its user. `credentials` lists the passkeys it holds.
 */
export async function openProfileWithAuthenticator(
  browser: Browser,
): Promise<{ context: BrowserContext; page: Page; credentials: () => Promise<{ credentialId: string }[]> }> {
  const { context, page } = await openProfile(browser);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  const credentials = async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  return { context, page, credentials };
}

/**
 * The page at both widths: a screenshot in `dir` (docs/console or docs/operator), axe-core's verdict (no serious or
 * critical violation), and no sideways scrolling; back at 1280 px after.
 */
export async function checkPageAt(page: Page, dir: string, name: string): Promise<void> {
  for (const width of PAGE_WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: join(dir, `${name}-${width}.png`), fullPage: true });
    const violations = await seriousAxeViolations(page);
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect({ page: name, width, violations, overflow }).toEqual({ page: name, width, violations: [], overflow: 0 });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
