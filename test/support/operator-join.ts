import { generateSync } from 'otplib';
import { Page } from 'playwright-core';
import { runAdminCli } from './admin-cli';
import { ApiProcess } from './api-process';

const OPERATOR_LISTENER = /Operators' listener .* on ([\d.]+):(\d+)/;

/** Where the operator console of a test runs: its listener, and the admin command's settings that name it. */
export interface OperatorConsoleAt {
  operatorUrl: string;
  cliEnv: Record<string, string>;
}

/**
 * An API process of `env` with the operators' listener on a free port (OPERATOR_PORT 0), and where its console is.
 * `browserHost`: the name the browser reaches it by, when not its address (WebAuthn refuses an IP address as the
 * relying party's id, so the passkey specs use localhost).
 */
export async function startOperatorApi(
  env: Record<string, string>,
  { browserHost }: { browserHost?: string } = {},
): Promise<{ api: ApiProcess } & OperatorConsoleAt> {
  const api = await ApiProcess.start({ ...env, OPERATOR_PORT: '0' });
  const [, address, port] = OPERATOR_LISTENER.exec(api.log)!;
  return { api, operatorUrl: `http://${browserHost ?? address}:${port}`, cliEnv: { ...env, OPERATOR_PORT: port } };
}

/**
 * Invites an operator through the admin command (one line: the link), then takes the invitation in the browser:
 * a too short password refused, then `password`, then TOTP (the code computed with otplib, as an app does).
 * `check` is called on the join page and on its TOTP page. Answers the recovery codes and the code used.
 */
export async function joinAsOperator(
  page: Page,
  { operatorUrl, cliEnv }: OperatorConsoleAt,
  account: { email: string; role: 'operator' | 'support'; password: string },
  check?: (name: 'join' | 'join-totp') => Promise<void>,
): Promise<{ recoveryCodes: string[]; usedCode: string }> {
  const { email, role, password } = account;
  const invited = await runAdminCli(cliEnv, 'invite-operator', '--email', email, '--name', `${role} ${email}`, '--role', role);
  expect([invited.status, invited.stderr]).toEqual([0, '']);
  const lines = invited.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  const link = new URL(lines[0]);
  expect(link.pathname).toMatch(/^\/operator\/join\/[A-Za-z0-9_-]{43}$/);
  await page.goto(`${operatorUrl}${link.pathname}`);
  await check?.('join');
  await page.getByLabel('Password').fill('short');
  await page.evaluate("document.getElementById('password').removeAttribute('minlength')");
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByRole('alert').textContent()).resolves.toBe('The password must have at least 12 characters.');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  const secret = (await page.locator('#totp-secret').textContent())!;
  await check?.('join-totp');
  const usedCode = generateSync({ secret, epoch: Math.floor(Date.now() / 1000) });
  await page.getByLabel('Code from the app').fill(usedCode);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Your recovery codes');
  return { recoveryCodes: await page.locator('#recovery-codes code').allTextContents(), usedCode };
}
