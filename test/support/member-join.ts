import { generateSync } from 'otplib';
import { Page } from 'playwright-core';
import { FormClient } from './console-client';

/** The password test members join with. */
export const MEMBER_PASSWORD = 'violet tractor umbrella sings';

/** The code an authenticator app shows for `secret` at `atMs`, computed with otplib as the app does. */
export const codeAt = (secret: string, atMs: number): string => generateSync({ secret, epoch: Math.floor(atMs / 1000) });

/**
 * Joins a partner's account through an invitation link in the browser, on the partner console at `baseUrl`: name
 * and password, then the code of the key shown (at `nowMs()`, the clock the service reads), then its recovery codes
 * and on to the console. `check` is called on each of the three pages.
 */
export async function joinAsMember(
  page: Page,
  baseUrl: string,
  link: string,
  person: { name: string; password: string; nowMs: () => number },
  check?: (name: 'join' | 'join-second-factor' | 'recovery-codes') => Promise<void>,
): Promise<{ secret: string; usedAt: number; recoveryCodes: string[] }> {
  await page.goto(`${baseUrl}${new URL(link).pathname}`);
  await check?.('join');
  await page.getByLabel('Your name').fill(person.name);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  const secret = (await page.locator('#totp-secret').innerText()).trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await check?.('join-second-factor');
  const usedAt = person.nowMs();
  await page.getByLabel('Six-digit code').fill(codeAt(secret, usedAt));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
  const recoveryCodes = (await page.locator('#recovery-codes li').allInnerTexts()).map((code) => code.trim());
  await check?.('recovery-codes');
  await page.getByRole('link', { name: 'Continue to the console' }).click();
  await page.waitForURL(`${baseUrl}/console/overview`);
  return { secret, usedAt, recoveryCodes };
}

/** Joins through an invitation link with forms, without a browser: the client is then signed in. */
export async function joinByForm(client: FormClient, link: string, now: () => number): Promise<{ secret: string }> {
  const path = new URL(link).pathname;
  const _csrf = await client.tokenOf(path);
  expect((await client.send('POST', path, { _csrf, displayName: 'Sam Session', password: MEMBER_PASSWORD })).status).toBe(303);
  const secret = /id="totp-secret" class="secret">([A-Z2-7]+)</.exec(await (await client.send('GET', path)).text())![1];
  expect((await client.send('POST', `${path}/factor`, { _csrf, code: codeAt(secret, now()) })).status).toBe(200);
  return { secret };
}
