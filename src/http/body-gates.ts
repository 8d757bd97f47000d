import type { FastifyRequest } from 'fastify';

/**
 * Decides, before more than MAX_REQUEST_BODY_BYTES of a body is read, whether its sender may send a larger one:
 * a body only a signed-in caller may send is then neither received nor parsed for anyone else. The route's own
 * authentication still answers the request as it always does.
 */
export abstract class BodyGate {
  abstract admits(request: FastifyRequest): boolean | Promise<boolean>;
}

/** The partner API's gate, every route's unless it names another: a valid API key (AuthModule provides it). */
export abstract class ApiKeyBodyGate extends BodyGate {}

/** The console's gate: a live console session (ConsoleModule provides it). */
export abstract class ConsoleSessionBodyGate extends BodyGate {}
