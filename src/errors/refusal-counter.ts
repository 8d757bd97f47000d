import type { FastifyRequest } from 'fastify';

/**
 * Counts a refusal the error filter answers, per partner (who the request's key belongs to, which only the feature
 * that authenticates knows); provided by that feature (src/auth, RefusalsModule).
 */
export abstract class RefusalCounter {
  abstract count(request: FastifyRequest, code: string): void;
}
