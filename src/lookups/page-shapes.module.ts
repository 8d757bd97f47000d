import { Module } from '@nestjs/common';
import { PageShapeStore } from './page-shape-store';

/** The register pages' shapes, for the three that share them: the lookup worker records, the register watch alerts, readiness reads. */
@Module({
  providers: [PageShapeStore],
  exports: [PageShapeStore],
})
export class PageShapesModule {}
