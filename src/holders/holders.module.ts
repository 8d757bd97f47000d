import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { LookupsModule } from '../lookups/lookups.module';
import { QuotaModule } from '../quota/quota.module';
import { SecretsModule } from '../secrets/secrets.module';
import { VerificationModule } from '../verification/verification.module';
import { DateOfBirthChecks } from './date-of-birth-checks';
import { HolderChecksService } from './holder-checks.service';
import { HoldersController } from './holders.controller';
import { NameSearchSubjects } from './name-search-subjects';
import { admitDatesOfBirth } from './date-of-birth-checks.script';
import { RedisScriptsModule } from '../redis/redis-scripts.module';

/** POST /v1/licences/verify-holder and /v1/licences/search: both ask the lookups module, through verify's protocol. */
@Module({
  imports: [RedisScriptsModule.forFeature([admitDatesOfBirth]), AuthModule, LookupsModule, QuotaModule, SecretsModule, VerificationModule],
  controllers: [HoldersController],
  providers: [HolderChecksService, NameSearchSubjects, DateOfBirthChecks],
  exports: [NameSearchSubjects, HolderChecksService, DateOfBirthChecks],
})
export class HoldersModule {}
