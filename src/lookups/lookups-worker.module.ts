import { Module } from '@nestjs/common';
import { LookupProcessor } from './lookup.processor';
import { LookupsModule } from './lookups.module';
import { registerClientCloserProvider, registerClientProvider } from './register-client.provider';

/** Worker only: runs the lookups through the register client. The API never imports it, so it never consumes jobs. */
@Module({
  imports: [LookupsModule],
  providers: [LookupProcessor, registerClientProvider, registerClientCloserProvider],
})
export class LookupsWorkerModule {}
