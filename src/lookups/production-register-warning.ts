import type { Logger } from '@nestjs/common';
// The URL alone: the API process must not load the register client, its HTTP pool and HTML parser.
import { PRODUCTION_REGISTER_URL } from '@lvs/register/production-url';

/** Says loudly when lookups will not reach the real register. */
export function warnIfNotProductionRegister(registerUrl: string, logger: Pick<Logger, 'warn'>): void {
  if (registerUrl.replace(/\/$/, '') !== PRODUCTION_REGISTER_URL) {
    logger.warn(`REGISTER_URL is ${registerUrl}, not the production register: answers come from a sandbox or test double`);
  }
}
