import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { LookupsModule } from '../lookups/lookups.module';
import { SecretsModule } from '../secrets/secrets.module';
import { QuotaModule } from '../quota/quota.module';
import { WatchlistController } from './watchlist.controller';
import { WatchlistRepository } from './watchlist.repository';
import { WatchlistService } from './watchlist.service';

/** Watchlists (API side); the worker re-checks the numbers (WatchlistWorkerModule). */
@Module({
  imports: [AuthModule, QuotaModule, LookupsModule, SecretsModule],
  controllers: [WatchlistController],
  providers: [WatchlistService, WatchlistRepository],
  exports: [WatchlistService],
})
export class WatchlistModule {}
