import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Page } from 'playwright-core';

/** Claims of a login name at the test provider: anything but email_verified true refuses it. */
export interface ProviderAccount {
  email?: string;
  email_verified?: unknown;
  name?: string;
}

/** The test provider's client and accounts (test/support/openid-provider.mjs). */
export interface ProviderSettings {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  accounts: Record<string, ProviderAccount>;
}

/** A real OpenID provider (oidc-provider) in a child process on loopback, at `issuer`. */
export class OpenIdProviderProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly issuer: string,
  ) {}

  static async start(settings: ProviderSettings): Promise<OpenIdProviderProcess> {
    const child = spawn(process.execPath, [join(__dirname, 'openid-provider.mjs'), JSON.stringify(settings)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const lines = createInterface({ input: child.stdout });
    const first = await new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`the test OpenID provider exited (${code}): ${errors}`)));
    });
    return new OpenIdProviderProcess(child, (JSON.parse(first) as { issuer: string }).issuer);
  }

  /** In a browser sent to this provider: its own login form, with `login` (any password). */
  async logIn(page: Page, login: string): Promise<void> {
    await page.waitForURL(new RegExp(`^${this.issuer}/interaction/`));
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}
