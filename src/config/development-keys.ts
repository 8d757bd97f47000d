import { createHash } from 'node:crypto';

/** Encrypts webhook secrets when no key is configured, with a warning at start-up: fine for a laptop, refused in production. */
export const DEVELOPMENT_WEBHOOK_KEY_HEX = createHash('sha256').update('lvs development webhook key').digest('hex');

/** Protects holder data when HOLDER_DATA_KEY is empty, with a warning at start-up: fine for a laptop, refused in production. */
export const DEVELOPMENT_HOLDER_DATA_KEY_HEX = createHash('sha256').update('lvs development holder data key').digest('hex');

/** Signs verification receipts when RECEIPT_SIGNING_KEYS is empty, with a warning at start-up: refused in production. */
export const DEVELOPMENT_RECEIPT_KEY = createHash('sha256').update('lvs development receipt key').digest('base64url');
