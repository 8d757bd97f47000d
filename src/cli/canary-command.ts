import { INestApplicationContext } from '@nestjs/common';
import { CanaryStore } from '../lookups/canary-store';
import { AdminCommand } from './admin-grammar';

/** `canary acknowledge|rebaseline`: clears the failed canaries (readiness is ok again), and with rebaseline their baselines too. */
export async function runCanaryCommand(app: INestApplicationContext, { action }: Extract<AdminCommand, { command: 'canary' }>): Promise<unknown> {
  const canaries = app.get(CanaryStore);
  const failures = action === 'acknowledge' ? await canaries.acknowledge() : await canaries.rebaseline();
  return { canary: action, failuresCleared: failures, baselinesCleared: action === 'rebaseline' };
}
