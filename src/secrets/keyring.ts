import { DEVELOPMENT_KEY_HEX, SecretKey, secretKey } from './secret-box';

export interface Keyring {
  /** the first key seals; every key opens */
  keys: SecretKey[];
  /** true when no key is configured and the public development key is used */
  development: boolean;
}

/**
 * A ring of keys from a list setting when it lists any (the first seals), else from a one-key setting, else the
 * development key. A key listed twice counts once.
 */
export function keyring(list: readonly string[], single: string, developmentKeyHex: string): Keyring {
  const configured = list.length > 0 ? list : [single].filter((key) => key !== '');
  if (configured.length === 0) return { keys: [secretKey(developmentKeyHex)], development: true };
  const keys = new Map(configured.map((hex) => secretKey(hex)).map((key) => [key.id, key]));
  return { keys: [...keys.values()], development: false };
}

/** The keys that seal and open signing secrets: WEBHOOK_SECRET_KEYS, else WEBHOOK_SECRET_KEY, else the development key. */
export function webhookKeyring(settings: { WEBHOOK_SECRET_KEYS: readonly string[]; WEBHOOK_SECRET_KEY: string }): Keyring {
  return keyring(settings.WEBHOOK_SECRET_KEYS, settings.WEBHOOK_SECRET_KEY, DEVELOPMENT_KEY_HEX);
}
