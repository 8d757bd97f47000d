import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { checkReceipt, ReceiptCheck } from './receipt-keys';

const USAGE = `Usage:
  receipts verify FILE [--jwks URL|FILE]
    FILE: a receipt (GET /v1/verifications/{id}/receipt). --jwks: the service's key set, a file (offline) or a URL;
    by default the receipt's issuer's /.well-known/jwks.json.`;

/** The issuer a receipt's payload names, unverified: only where to fetch the keys from. */
function issuerOf(receipt: string): string | null {
  try {
    const { iss } = JSON.parse(Buffer.from(receipt.split('.')[1] ?? '', 'base64url').toString('utf8')) as { iss?: unknown };
    return typeof iss === 'string' ? iss : null;
  } catch {
    return null;
  }
}

/** The key set from a file, a URL, or the issuer the receipt names. */
async function readJwks(source: string | undefined, receipt: string): Promise<unknown> {
  const issuer = issuerOf(receipt);
  const where = source ?? (issuer === null ? null : `${issuer}/.well-known/jwks.json`);
  if (where === null) throw new Error('the receipt names no issuer to fetch keys from: pass --jwks');
  if (/^https?:\/\//.test(where)) {
    const response = await fetch(where);
    if (!response.ok) throw new Error(`${where} answered ${response.status}`);
    return response.json();
  }
  return JSON.parse(await readFile(where, 'utf8'));
}

/** `npm run --silent receipts -- verify FILE [--jwks URL|FILE]`: 0 and the record when valid, 1 and why not. */
async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: process.argv.slice(2), allowPositionals: true, strict: true, options: { jwks: { type: 'string' } } });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [command, file, ...rest] = parsed.positionals;
  if (command !== 'verify' || file === undefined || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  let check: ReceiptCheck;
  try {
    const receipt = (await readFile(file, 'utf8')).trim();
    check = checkReceipt(receipt, (await readJwks(parsed.values.jwks, receipt)) as { keys?: unknown });
  } catch (error) {
    check = { valid: false, reason: (error as Error).message };
  }
  if (!check.valid) {
    console.error(`Receipt not valid: ${check.reason}`);
    return 1;
  }
  console.log(JSON.stringify(check.claims, null, 2));
  return 0;
}

void main().then((code) => process.exit(code));
