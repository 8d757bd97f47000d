import { Module } from '@nestjs/common';
import { RecordOwners } from '../evidence/record-owners';
import { AuthRepository } from './auth.repository';

/** Tells the worker's evidence drain which users exist (RecordOwners), without the rest of auth. */
@Module({
  providers: [AuthRepository, { provide: RecordOwners, useExisting: AuthRepository }],
  exports: [RecordOwners],
})
export class RecordOwnersModule {}
