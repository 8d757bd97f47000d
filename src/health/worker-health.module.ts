import { Module } from '@nestjs/common';
import { WorkerHeartbeat } from './worker-heartbeat';
import { WorkerListener } from './worker-listener';

/** The worker's side of health: its heartbeat in Redis, and the operators' listener (/metrics, /health/*). */
@Module({
  providers: [WorkerHeartbeat, WorkerListener],
  exports: [WorkerHeartbeat],
})
export class WorkerHealthModule {}
