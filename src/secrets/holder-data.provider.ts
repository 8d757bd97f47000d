import { Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { HolderDataProtection, holderDataKeyring } from './holder-data';

/** Holder data is sealed with HOLDER_DATA_KEYS (or HOLDER_DATA_KEY, a ring of one), or a development key with a warning. */
export function holderDataProtection(config: AppConfig): HolderDataProtection {
  const ring = holderDataKeyring({ HOLDER_DATA_KEYS: config.get('HOLDER_DATA_KEYS'), HOLDER_DATA_KEY: config.get('HOLDER_DATA_KEY') });
  if (ring.development) {
    new Logger('HolderData').warn(
      'HOLDER_DATA_KEY is not set: dates of birth and name searches are protected with a public development key; set 64 hex digits in production',
    );
  }
  return new HolderDataProtection(ring.keys.map((key) => key.hex));
}
