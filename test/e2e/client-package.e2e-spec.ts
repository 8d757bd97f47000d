import { SANDBOX_NUMBERS } from '@lvs/test-register';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestApp, TestApp } from '../support/test-app';

const run = promisify(execFile);
const ROOT = join(__dirname, '../..');
const CLIENT = join(ROOT, 'libs/client');
const NPM = process.env.npm_execpath;

/** docs/clients.md's TypeScript blocks that use @lvs/client, in page order. */
function clientBlocks(): string[] {
  return [...readFileSync(join(ROOT, 'docs/clients.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((block) => block[1])
    .filter((source) => source.includes("from '@lvs/client'"));
}

/** npm, by the same Node that runs the tests (npm_execpath when Jest runs under npm). */
function npm(args: string[], cwd: string) {
  return NPM?.endsWith('.js') ? run(process.execPath, [NPM, ...args], { cwd }) : run('npm', args, { cwd });
}

describe('@lvs/client as a partner installs it: npm pack, an empty folder outside the repository', () => {
  let t: TestApp;
  let folder: string;

  beforeAll(async () => {
    t = await startTestApp({ withWorker: true });
    folder = mkdtempSync(join(tmpdir(), 'lvs-client-consumer-'));
  });
  afterAll(async () => {
    rmSync(folder, { recursive: true, force: true });
    await t.close();
  });

  it("type-checks docs/clients.md's examples against the packed client, and runs the first", async () => {
    // npm run build builds the client (libs/client/build.mjs); the package ships dist only.
    expect(existsSync(join(CLIENT, 'dist/esm/index.js')) && existsSync(join(CLIENT, 'dist/cjs/index.js'))).toBe(true);
    const { stdout: packed } = await npm(['pack', CLIENT, '--pack-destination', folder, '--json'], folder);
    const [{ filename }] = JSON.parse(packed) as { filename: string }[];
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'partner', private: true, type: 'module' }));
    await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', join(folder, filename)], folder);

    const blocks = clientBlocks();
    expect(blocks).toHaveLength(3);
    // The page's later snippets use the first one's client; each file is one module.
    const [example, ...snippets] = blocks;
    writeFileSync(join(folder, 'example.ts'), example);
    snippets.forEach((snippet, index) =>
      writeFileSync(
        join(folder, `snippet-${index}.ts`),
        `import { LicenceVerificationClient } from '@lvs/client';\nconst client = new LicenceVerificationClient({ apiKey: '', baseUrl: '' });\n${snippet}\nexport {};\n`,
      ),
    );
    const tsc = require.resolve('typescript/bin/tsc');
    const files = ['example.ts', ...snippets.map((_snippet, index) => `snippet-${index}.ts`)];
    const compilerErrors = await run(
      process.execPath,
      [tsc, '--strict', '--module', 'nodenext', '--target', 'es2022', '--typeRoots', join(ROOT, 'node_modules/@types'), '--types', 'node', ...files],
      { cwd: folder },
    ).then(
      () => '',
      (failure: { stdout: string }) => failure.stdout,
    );
    expect(compilerErrors).toBe('');

    // Each receipt is asked for as soon as its answer arrives: issue 44's "Read your own record" makes that readable.
    const { key, userId } = await t.createKey({ quota: 10 });
    const { stdout } = await run(process.execPath, ['example.js', SANDBOX_NUMBERS.active, SANDBOX_NUMBERS.notFound], {
      cwd: folder,
      env: { PATH: process.env.PATH ?? '', LVS_BASE_URL: t.baseUrl, LVS_API_KEY: key },
    });
    const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
    expect(stdout.split('\n')).toEqual([
      `${SANDBOX_NUMBERS.active} FOUND JANE DOE, Active (live)`,
      expect.stringMatching(new RegExp(`^receipt ${uuid} signed by ${t.baseUrl}: FOUND$`)),
      `${SANDBOX_NUMBERS.notFound} NOT_FOUND`,
      expect.stringMatching(new RegExp(`^receipt ${uuid} signed by ${t.baseUrl}: NOT_FOUND$`)),
      '',
    ]);
    const used = await t.db.query('SELECT used FROM quota_usage WHERE user_id = $1', [userId]);
    expect(used.rows).toEqual([{ used: 2 }]);
  }, 180_000);
});
