import { Module } from '@nestjs/common';
import { LiveRegister } from './live-register';
import { LookupDispatcher } from './lookup-dispatcher';
import { LookupProcessor, lookupWorkerProviders } from './lookup.processor';
import { LookupsCoreModule } from './lookups-core.module';
import { SecretsModule } from '../secrets/secrets.module';
import { LookupsModule } from './lookups.module';
import { PageShapesModule } from './page-shapes.module';
import { registerClientCloserProvider, registerClientProvider } from './register-client.provider';
import { holdDispatchLease, releaseDispatchLease } from './dispatch-lease.script';
import { RedisScriptsModule } from '../redis/redis-scripts.module';

/** Worker only: runs the lookups (live ones through the register client, test ones on their own queue), and feeds parked lookups into the queue in turns. The API never imports it, so it never consumes jobs. */
@Module({
  imports: [RedisScriptsModule.forFeature([holdDispatchLease, releaseDispatchLease]), LookupsCoreModule, LookupsModule, SecretsModule, PageShapesModule],
  providers: [LiveRegister, LookupProcessor, ...lookupWorkerProviders, LookupDispatcher, registerClientProvider, registerClientCloserProvider],
})
export class LookupsWorkerModule {}
