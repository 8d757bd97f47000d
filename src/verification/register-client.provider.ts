import { Logger, OnApplicationShutdown, Provider } from '@nestjs/common';
import { PRODUCTION_REGISTER_URL, RegisterClient } from '@lvs/register';
import { AppConfig } from '../config/app-config';

/** Says loudly when lookups will not reach the real register. */
export function warnIfNotProductionRegister(registerUrl: string, logger: Pick<Logger, 'warn'>): void {
  if (registerUrl.replace(/\/$/, '') !== PRODUCTION_REGISTER_URL) {
    logger.warn(`REGISTER_URL is ${registerUrl}, not the production register: answers come from a sandbox or test double`);
  }
}

export const registerClientProvider: Provider = {
  provide: RegisterClient,
  inject: [AppConfig],
  useFactory: (config: AppConfig) => {
    const baseUrl = config.get('REGISTER_URL');
    warnIfNotProductionRegister(baseUrl, new Logger('Register'));
    return new RegisterClient({
      baseUrl,
      requestTimeoutMs: config.get('REGISTER_REQUEST_TIMEOUT_MS'),
      maxConnections: config.get('WORKER_CONCURRENCY'),
    });
  },
};

/** Closes the register client's connection pool when the worker shuts down. */
export class RegisterClientCloser implements OnApplicationShutdown {
  constructor(private readonly client: RegisterClient) {}

  onApplicationShutdown(): Promise<void> {
    return this.client.close();
  }
}

export const registerClientCloserProvider: Provider = {
  provide: RegisterClientCloser,
  inject: [RegisterClient],
  useFactory: (client: RegisterClient) => new RegisterClientCloser(client),
};
