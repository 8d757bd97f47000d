/** Shortest ADMIN_TOKEN production accepts: 32 characters, as many as a 128-bit token written in hex. */
export const MIN_PRODUCTION_ADMIN_TOKEN_LENGTH = 32;

/** The secrets whose development defaults must never reach production. */
export type ProductionSecret = 'WEBHOOK_SECRET_KEY' | 'HOLDER_DATA_KEY' | 'ADMIN_TOKEN';

/**
 * Why `value` of `setting` may not run with this NODE_ENV, or null when it may. Outside production a
 * missing WEBHOOK_SECRET_KEY is only warned about (a laptop needs no key); in production it would encrypt
 * webhook secrets with the development key published in the source, so anyone holding a database backup
 * could forge signed events. HOLDER_DATA_KEY likewise: its development key would let anyone holding a backup
 * of Redis or the database test dates of birth against the stored digests. An empty ADMIN_TOKEN keeps the queue dashboard off, so only a short one is wrong.
 */
export function describeProductionSecretProblem(setting: ProductionSecret, value: string, nodeEnv: string): string | null {
  if (nodeEnv !== 'production') return null;
  if (setting === 'WEBHOOK_SECRET_KEY' || setting === 'HOLDER_DATA_KEY') {
    return value === '' ? `${setting} must be set (64 hex digits) when NODE_ENV is production` : null;
  }
  return value !== '' && value.length < MIN_PRODUCTION_ADMIN_TOKEN_LENGTH
    ? `ADMIN_TOKEN must be at least ${MIN_PRODUCTION_ADMIN_TOKEN_LENGTH} characters when NODE_ENV is production (or unset, which keeps the dashboard off)`
    : null;
}
