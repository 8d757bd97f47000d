import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { LookupsModule } from '../lookups/lookups.module';
import { WatchlistModule } from '../watchlist/watchlist.module';
import { TestKeyGuard } from './test-key.guard';
import { TestLicencesController } from './test-licences.controller';
import { TestLicencesService } from './test-licences.service';

/** Test mode's simulate calls: POST and DELETE /v1/test/licences/{licenceNumber}, for test keys only. */
@Module({
  imports: [AuthModule, LookupsModule, WatchlistModule],
  controllers: [TestLicencesController],
  providers: [TestLicencesService, TestKeyGuard],
})
export class TestModeModule {}
