import { INestApplicationContext } from '@nestjs/common';
import { PageShapeStore } from '../lookups/page-shape-store';
import { AdminCommand, UsageError } from './admin-grammar';

/** `shape list`: the register pages' shapes and the kept samples; `shape acknowledge SHAPE`: a new shape is known from now on. */
export async function runShapeCommand(
  app: INestApplicationContext,
  command: Extract<AdminCommand, { command: 'shape-list' | 'shape-acknowledge' }>,
): Promise<unknown> {
  const shapes = app.get(PageShapeStore);
  if (command.command === 'shape-list') return shapes.list();
  if (!(await shapes.acknowledge(command.shape))) throw new UsageError(`No new page shape ${command.shape} waits for an acknowledgement`);
  return { shape: command.shape, acknowledged: true };
}
