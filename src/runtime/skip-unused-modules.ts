import { skipUnusedModules } from './unused-modules';

// Imported by both entry points before anything that loads TypeORM or BullMQ (see unused-modules.ts).
skipUnusedModules();
