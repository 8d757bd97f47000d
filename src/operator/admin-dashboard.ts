import { getQueueToken } from '@nestjs/bullmq';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '../errors/error-codes';
import { REGISTER_LOOKUP_QUEUE, TEST_LOOKUP_QUEUE } from '../lookups/lookup-jobs';
import { isAdminAuthorized } from './admin-authorization';

export const ADMIN_DASHBOARD_PATH = '/admin/queues';

/**
 * Bull Board at /admin/queues of `target` (the partner app, or the operators' listener when there is one),
 * showing the lookup queues (live and test) of `source` (the partner app), only when ADMIN_TOKEN is set. Nest guards and middleware do not cover
 * routes a Fastify plugin adds, so the token is checked by an onRequest hook in the plugin's own scope.
 * Bull Board is loaded only then: an API without the dashboard does not carry it in memory. Unless `writable`
 * (ADMIN_DASHBOARD_WRITE), every queue is read-only: a leaked token shows jobs but cannot pause, empty, retry or
 * delete anything (Bull Board answers such actions 405).
 */
export async function mountAdminDashboard(
  target: NestFastifyApplication,
  source: NestFastifyApplication,
  token: string,
  writable: boolean,
): Promise<void> {
  if (token === '') return;
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only here, as the comment above says */
  const { createBullBoard } = require('@bull-board/api') as typeof import('@bull-board/api');
  const { BullMQAdapter } = require('@bull-board/api/bullMQAdapter') as typeof import('@bull-board/api/bullMQAdapter');
  const { FastifyAdapter: BullBoardFastifyAdapter } = require('@bull-board/fastify') as typeof import('@bull-board/fastify');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const board = new BullBoardFastifyAdapter();
  board.setBasePath(ADMIN_DASHBOARD_PATH);
  createBullBoard({
    queues: [REGISTER_LOOKUP_QUEUE, TEST_LOOKUP_QUEUE].map(
      (name) => new BullMQAdapter(source.get<Queue>(getQueueToken(name), { strict: false }), { readOnlyMode: !writable }),
    ),
    serverAdapter: board,
  });
  await target
    .getHttpAdapter()
    .getInstance()
    .register(async (scope: FastifyInstance) => {
      scope.addHook('onRequest', async (request, reply) => {
        if (isAdminAuthorized(request.headers.authorization, token)) return;
        await reply
          .status(ERROR_CODES.UNAUTHORIZED.status)
          .header('WWW-Authenticate', 'Basic realm="queues"')
          .header('content-type', 'application/json; charset=utf-8')
          .send({ code: 'UNAUTHORIZED', message: 'Invalid or missing admin token' });
      });
      await scope.register(board.registerPlugin(), { prefix: ADMIN_DASHBOARD_PATH });
    });
}
