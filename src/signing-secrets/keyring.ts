import { DEVELOPMENT_KEY_HEX, SecretKey, secretKey } from './secret-box';

export interface Keyring {
  /** the first key seals; every key opens */
  keys: SecretKey[];
  /** true when no key is configured and the public development key is used */
  development: boolean;
}

/**
 * The keys that seal and open signing secrets: WEBHOOK_SECRET_KEYS when it lists any (the first seals),
 * else WEBHOOK_SECRET_KEY as a one-key list, else the development key. A key listed twice counts once.
 */
export function webhookKeyring(settings: { WEBHOOK_SECRET_KEYS: readonly string[]; WEBHOOK_SECRET_KEY: string }): Keyring {
  const configured = settings.WEBHOOK_SECRET_KEYS.length > 0 ? settings.WEBHOOK_SECRET_KEYS : [settings.WEBHOOK_SECRET_KEY].filter((key) => key !== '');
  if (configured.length === 0) return { keys: [secretKey(DEVELOPMENT_KEY_HEX)], development: true };
  const keys = new Map(configured.map((hex) => secretKey(hex)).map((key) => [key.id, key]));
  return { keys: [...keys.values()], development: false };
}
