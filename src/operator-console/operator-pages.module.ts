import fastifyStatic from '@fastify/static';
import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { join } from 'node:path';
import { CONSOLE_ASSETS_DIR, registerViews } from '../console/mount-console';
import { OperatorConsoleController } from './operator-console.controller';
import { OperatorSessionGuard } from './operator-session.guard';
import { OperatorSignInController } from './operator-sign-in.controller';
import { OperatorTeamController } from './operator-team.controller';

export const OPERATOR_ASSETS_PREFIX = '/operator/assets/';

/**
 * The operator console's pages, on the operators' listener. Their services are the partner app's instances
 * (OperatorConsoleCoreModule), which the listener's root provides. The templates are the operator console's own;
 * the stylesheet, script and icon are the partner console's files, served under /operator/assets/. Queued, not
 * awaited, as the partner console's are (mount-console.ts).
 */
@Module({
  controllers: [OperatorSignInController, OperatorConsoleController, OperatorTeamController],
  providers: [OperatorSessionGuard],
})
export class OperatorPagesModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    registerViews(fastify, join(__dirname, 'views'));
    void fastify.register(fastifyStatic, { root: CONSOLE_ASSETS_DIR, prefix: OPERATOR_ASSETS_PREFIX, decorateReply: false, maxAge: '1h' });
  }
}
