import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { checkReceipt, RECEIPT_TYPE, ReceiptCheck, TEST_RECEIPT_TYPE } from '../verification-records/receipt-keys';
import { trustOf } from '../verification-records/receipt-trust';

const USAGE = `Usage:
  receipts verify FILE --issuer URL [--issuer URL ...] [--jwks URL|FILE] [--test]
  receipts verify FILE --jwks URL [--test]
    FILE: a receipt (GET /v1/verifications/{id}/receipt). --issuer: the address (PUBLIC_BASE_URL) of a service whose
    receipts you trust; its iss must be one of them. --jwks: the key set to check with, a file (offline, with
    --issuer) or a URL; by default the issuer's /.well-known/jwks.json. A URL at a service's /.well-known names that
    service as the issuer. --test: check a test-mode receipt (its keys are at /.well-known/jwks-test.json); without
    it a test-mode receipt is refused.`;

/** The issuer a receipt's payload names, unverified: only which of the trusted issuers' keys to fetch. */
function issuerOf(receipt: string): string | null {
  try {
    const { iss } = JSON.parse(Buffer.from(receipt.split('.')[1] ?? '', 'base64url').toString('utf8')) as { iss?: unknown };
    return typeof iss === 'string' ? iss : null;
  } catch {
    return null;
  }
}

/** The key set from a file or a URL. */
async function readJwks(where: string): Promise<{ keys?: unknown }> {
  if (/^https?:\/\//.test(where)) {
    const response = await fetch(where);
    if (!response.ok) throw new Error(`${where} answered ${response.status}`);
    return (await response.json()) as { keys?: unknown };
  }
  return JSON.parse(await readFile(where, 'utf8')) as { keys?: unknown };
}

/** `npm run --silent receipts -- verify FILE --issuer URL [--jwks URL|FILE] [--test]`: 0 and the record when valid, 1 and why not. */
async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      strict: true,
      options: { jwks: { type: 'string' }, issuer: { type: 'string', multiple: true }, test: { type: 'boolean', default: false } },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [command, file, ...rest] = parsed.positionals;
  if (command !== 'verify' || file === undefined || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const { jwks, issuer = [], test } = parsed.values;
  let check: ReceiptCheck;
  try {
    const receipt = (await readFile(file, 'utf8')).trim();
    const trust = trustOf({ jwks, issuers: issuer, test }, issuerOf(receipt));
    if ('refused' in trust) {
      console.error(`${trust.refused}\n\n${USAGE}`);
      return 2;
    }
    check = checkReceipt(receipt, await readJwks(trust.jwks), { type: test ? TEST_RECEIPT_TYPE : RECEIPT_TYPE, issuers: trust.issuers });
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
