import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { QuotaCoreModule } from './quota-core.module';
import { QuotaController } from './quota.controller';

@Module({
  imports: [QuotaCoreModule, AuthModule],
  controllers: [QuotaController],
  exports: [QuotaCoreModule],
})
export class QuotaModule {}
