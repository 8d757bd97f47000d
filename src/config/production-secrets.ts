/** Shortest ADMIN_TOKEN production accepts: 32 characters, as many as a 128-bit token written in hex. */
export const MIN_PRODUCTION_ADMIN_TOKEN_LENGTH = 32;

/** The secrets whose development defaults must never reach production. */
export type ProductionSecret = 'WEBHOOK_SECRET_KEY' | 'HOLDER_DATA_KEY' | 'ADMIN_TOKEN' | 'RECEIPT_SIGNING_KEYS';

/** The settings the decision reads besides the value itself. */
export interface ProductionContext {
  NODE_ENV: string;
  /** the rotation list, which stands in for WEBHOOK_SECRET_KEY when it lists a key */
  WEBHOOK_SECRET_KEYS: readonly string[];
}

/**
 * Why `value` of `setting` may not run in this environment, or null when it may. Outside production a
 * missing key is only warned about (a laptop needs no key); in production it would encrypt webhook
 * secrets with the development key published in the source, so anyone holding a database backup could
 * forge signed events. Either WEBHOOK_SECRET_KEY or WEBHOOK_SECRET_KEYS supplies the key. HOLDER_DATA_KEY
 * likewise: its development key would let anyone holding a copy of Redis or the database test guessed dates of
 * birth against the stored digests. RECEIPT_SIGNING_KEYS likewise: with the development key anyone could sign a
 * receipt that verifies. An empty
 * ADMIN_TOKEN keeps the queue dashboard off, so only a short one is wrong.
 */
export function describeProductionSecretProblem(setting: ProductionSecret, value: string, context: ProductionContext): string | null {
  if (context.NODE_ENV !== 'production') return null;
  if (setting === 'HOLDER_DATA_KEY') {
    return value === '' ? 'HOLDER_DATA_KEY must be set (64 hex digits) when NODE_ENV is production' : null;
  }
  if (setting === 'RECEIPT_SIGNING_KEYS') {
    return value === '' ? 'RECEIPT_SIGNING_KEYS must list at least one key (npm run keys -- receipt-key) when NODE_ENV is production' : null;
  }
  if (setting === 'WEBHOOK_SECRET_KEY') {
    return value === '' && context.WEBHOOK_SECRET_KEYS.length === 0
      ? 'WEBHOOK_SECRET_KEY must be set (64 hex digits) when NODE_ENV is production'
      : null;
  }
  return value !== '' && value.length < MIN_PRODUCTION_ADMIN_TOKEN_LENGTH
    ? `ADMIN_TOKEN must be at least ${MIN_PRODUCTION_ADMIN_TOKEN_LENGTH} characters when NODE_ENV is production (or unset, which keeps the dashboard off)`
    : null;
}
