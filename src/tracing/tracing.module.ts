import { Module, OnApplicationShutdown } from '@nestjs/common';
import { activeTracing } from './tracing';

/** Sends the spans still held when the process stops, after every other part has finished its work. */
class TracingShutdown implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await activeTracing()?.shutdown();
  }
}

/** Imported by each root module: tracing starts in the entry point, before Nest; this ends it in Nest's lifecycle. */
@Module({ providers: [TracingShutdown] })
export class TracingModule {}
