import { DEVELOPMENT_HOLDER_DATA_KEY_HEX, DEVELOPMENT_RECEIPT_KEY, DEVELOPMENT_WEBHOOK_KEY_HEX } from './development-keys';

/** Shortest ADMIN_TOKEN production accepts: 32 characters, as many as a 128-bit token written in hex. */
export const MIN_PRODUCTION_ADMIN_TOKEN_LENGTH = 32;
/** Fewest different characters an ADMIN_TOKEN production accepts: a random token of 32 characters has many more. */
export const MIN_PRODUCTION_ADMIN_TOKEN_DISTINCT = 8;

/** The settings whose development values must never reach production. */
export type ProductionSetting =
  | 'WEBHOOK_SECRET_KEY'
  | 'WEBHOOK_SECRET_KEYS'
  | 'HOLDER_DATA_KEY'
  | 'HOLDER_DATA_KEYS'
  | 'RECEIPT_SIGNING_KEYS'
  | 'ADMIN_TOKEN'
  | 'WEBHOOK_ALLOW_PRIVATE_URLS'
  | 'CONSOLE_KEY_SIGN_IN';

/** The settings the decision reads besides the value itself. */
export interface ProductionContext {
  NODE_ENV: string;
  /** the rotation list, which stands in for WEBHOOK_SECRET_KEY when it lists a key */
  WEBHOOK_SECRET_KEYS: readonly string[];
  /** the holder data key ring, which stands in for HOLDER_DATA_KEY when it lists a key */
  HOLDER_DATA_KEYS: readonly string[];
}

/** Keys published in the source (the development fallbacks) and so known to anyone. */
const DEVELOPMENT_KEYS = new Set([DEVELOPMENT_WEBHOOK_KEY_HEX, DEVELOPMENT_HOLDER_DATA_KEY_HEX]);

/** Why a key of 64 hex digits is too weak for production: a published development key, or one byte repeated (all zeros). */
function weakKeyProblem(setting: string, keyHex: string): string | null {
  const key = keyHex.toLowerCase();
  if (DEVELOPMENT_KEYS.has(key)) return `${setting} must not be a development key published in the source when NODE_ENV is production`;
  if (/^(..)\1*$/.test(key)) return `${setting} must not be one byte repeated (such as all zeros) when NODE_ENV is production`;
  return null;
}

/**
 * Why `value` of `setting` may not run in this environment, or null when it may. Outside production a
 * missing key is only warned about (a laptop needs no key). In production:
 * - a webhook key that is missing, published or one repeated byte would let anyone holding a database backup
 *   open webhook secrets and forge signed events (WEBHOOK_SECRET_KEY or WEBHOOK_SECRET_KEYS supplies it);
 * - HOLDER_DATA_KEY likewise (or HOLDER_DATA_KEYS, its ring) would let anyone holding a copy of Redis or the
 *   database test guessed dates of birth against the stored digests;
 * - RECEIPT_SIGNING_KEYS missing, or listing the published development key or a seed of one repeated byte,
 *   would let anyone sign a receipt that verifies;
 * - an ADMIN_TOKEN that is short or made of few characters can be guessed; an empty one keeps the queue
 *   dashboard off, so it is accepted;
 * - WEBHOOK_ALLOW_PRIVATE_URLS turns the SSRF guard off;
 * - CONSOLE_KEY_SIGN_IN=true lets a shared machine credential into the console, attributed to no person.
 */
export function describeProductionSecretProblem(
  setting: ProductionSetting,
  value: string | readonly string[] | boolean,
  context: ProductionContext,
): string | null {
  if (context.NODE_ENV !== 'production') return null;
  if (setting === 'WEBHOOK_ALLOW_PRIVATE_URLS') {
    return value === true ? 'WEBHOOK_ALLOW_PRIVATE_URLS must be false when NODE_ENV is production: it lets webhooks reach internal addresses' : null;
  }
  if (setting === 'CONSOLE_KEY_SIGN_IN') {
    return value === true ? 'CONSOLE_KEY_SIGN_IN must not be true when NODE_ENV is production: console sign-in is by members there' : null;
  }
  if (setting === 'RECEIPT_SIGNING_KEYS') {
    const keys = value as readonly string[];
    if (keys.length === 0) return 'RECEIPT_SIGNING_KEYS must list at least one key (npm run admin -- receipt-key) when NODE_ENV is production';
    if (keys.includes(DEVELOPMENT_RECEIPT_KEY)) {
      return 'RECEIPT_SIGNING_KEYS must not list the development key published in the source when NODE_ENV is production';
    }
    return keys.map((seed) => weakKeyProblem(setting, Buffer.from(seed, 'base64url').toString('hex'))).find((problem) => problem !== null) ?? null;
  }
  if (setting === 'WEBHOOK_SECRET_KEYS' || setting === 'HOLDER_DATA_KEYS') {
    return (value as readonly string[]).map((key) => weakKeyProblem(setting, key)).find((problem) => problem !== null) ?? null;
  }
  const text = value as string;
  if (setting === 'HOLDER_DATA_KEY') {
    if (text !== '') return weakKeyProblem(setting, text);
    return context.HOLDER_DATA_KEYS.length === 0 ? 'HOLDER_DATA_KEY must be set (64 hex digits) when NODE_ENV is production' : null;
  }
  if (setting === 'WEBHOOK_SECRET_KEY') {
    if (text !== '') return weakKeyProblem(setting, text);
    return context.WEBHOOK_SECRET_KEYS.length === 0 ? 'WEBHOOK_SECRET_KEY must be set (64 hex digits) when NODE_ENV is production' : null;
  }
  if (text === '') return null;
  if (text.length < MIN_PRODUCTION_ADMIN_TOKEN_LENGTH) {
    return `ADMIN_TOKEN must be at least ${MIN_PRODUCTION_ADMIN_TOKEN_LENGTH} characters when NODE_ENV is production (or unset, which keeps the dashboard off)`;
  }
  return new Set(text).size < MIN_PRODUCTION_ADMIN_TOKEN_DISTINCT
    ? `ADMIN_TOKEN must have at least ${MIN_PRODUCTION_ADMIN_TOKEN_DISTINCT} different characters when NODE_ENV is production (openssl rand -hex 24 makes one)`
    : null;
}

/**
 * Why the API may not run in this environment with these settings, one `SETTING: problem` each; none in production
 * when OPERATOR_PORT is set and PUBLIC_BASE_URL is an https address, and none outside production. Without
 * OPERATOR_PORT the partner port serves /metrics, /health/* and the queue dashboard to anyone who reaches it.
 * Without PUBLIC_BASE_URL the service knows no name of its own to sign receipts with (their iss), and a name taken
 * from requests would be whatever a client sends as Host. Over plain http, API keys cross the network readable,
 * and browsers drop the console's cookies, which are always Secure (`__Host-`). An operators' identity provider
 * (OPERATOR_OIDC_ISSUER) over plain http could be impersonated on the way.
 */
export function describeApiProductionProblems(settings: {
  NODE_ENV: string;
  OPERATOR_PORT: number | null;
  PUBLIC_BASE_URL: string;
  OPERATOR_OIDC_ISSUER?: string;
}): string[] {
  if (settings.NODE_ENV !== 'production') return [];
  const problems: string[] = [];
  if (settings.OPERATOR_PORT === null) {
    problems.push(
      'OPERATOR_PORT: OPERATOR_PORT must be set when NODE_ENV is production: without it the partner port serves /metrics, /health/* and the queue dashboard',
    );
  }
  if (settings.PUBLIC_BASE_URL === '') {
    problems.push(
      "PUBLIC_BASE_URL: PUBLIC_BASE_URL must be set when NODE_ENV is production: it is the issuer (iss) of every receipt, never a request's Host",
    );
  } else if (!/^https:\/\//i.test(settings.PUBLIC_BASE_URL)) {
    problems.push(
      "PUBLIC_BASE_URL: PUBLIC_BASE_URL must be an https address when NODE_ENV is production: partners send API keys to it, and the console's cookies are Secure",
    );
  }
  if (settings.OPERATOR_OIDC_ISSUER?.startsWith('http://')) {
    problems.push('OPERATOR_OIDC_ISSUER: OPERATOR_OIDC_ISSUER must be an https address when NODE_ENV is production: its answers vouch for operators');
  }
  return problems;
}
