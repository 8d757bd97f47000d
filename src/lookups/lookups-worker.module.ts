import { Module } from '@nestjs/common';
import { LookupDispatcher } from './lookup-dispatcher';
import { LookupProcessor } from './lookup.processor';
import { LookupsCoreModule } from './lookups-core.module';
import { SecretsModule } from '../secrets/secrets.module';
import { LookupsModule } from './lookups.module';
import { registerClientCloserProvider, registerClientProvider } from './register-client.provider';

/** Worker only: runs the lookups through the register client, and feeds parked lookups into the queue in turns. The API never imports it, so it never consumes jobs. */
@Module({
  imports: [LookupsCoreModule, LookupsModule, SecretsModule],
  providers: [LookupProcessor, LookupDispatcher, registerClientProvider, registerClientCloserProvider],
})
export class LookupsWorkerModule {}
