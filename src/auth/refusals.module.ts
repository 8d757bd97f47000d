import { Global, Module } from '@nestjs/common';
import { RefusalCounter } from '../errors/refusal-counter';
import { RefusalTally } from './refusal-tally';

/** The refusals' count per partner, for the error filter (RefusalCounter) and the operator console's partner page. */
@Global()
@Module({
  providers: [RefusalTally, { provide: RefusalCounter, useExisting: RefusalTally }],
  exports: [RefusalTally, RefusalCounter],
})
export class RefusalsModule {}
