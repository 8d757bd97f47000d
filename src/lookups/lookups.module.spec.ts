import { MODULE_METADATA } from '@nestjs/common/constants';
import { LookupService } from './lookup.service';
import { LookupsModule } from './lookups.module';

describe('LookupsModule', () => {
  it('exports the lookup road and nothing else: holder data, readiness and the dashboard belong to their own modules', () => {
    expect(Reflect.getMetadata(MODULE_METADATA.EXPORTS, LookupsModule)).toEqual([LookupService]);
  });
});
