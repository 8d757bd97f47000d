import { Logger, OnApplicationShutdown, Provider } from '@nestjs/common';
import { RegisterClient } from '@lvs/register';
import { AppConfig } from '../config/app-config';
import { warnIfNotProductionRegister } from './production-register-warning';

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
