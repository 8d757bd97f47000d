import { createHash } from 'node:crypto';

/** Encrypts webhook secrets when no key is configured, with a warning at start-up: fine for a laptop, refused in production. */
export const DEVELOPMENT_WEBHOOK_KEY_HEX = createHash('sha256').update('lvs development webhook key').digest('hex');

/** Protects holder data when HOLDER_DATA_KEY is empty, with a warning at start-up: fine for a laptop, refused in production. */
export const DEVELOPMENT_HOLDER_DATA_KEY_HEX = createHash('sha256').update('lvs development holder data key').digest('hex');
