import type { LoggerService } from '@nestjs/common';
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { mapClientError, toErrorAnswer } from './map-framework-error';
import { renderRawErrorAnswer } from './raw-error-answer';

/**
 * The answer each connection is sending, recorded from the server's 'request' event: a client error can come while
 * one is under way (its body timer ran out, say), and once that answer's headers are out nothing else may be
 * written on the socket.
 */
export class AnswersInProgress {
  private readonly answers = new WeakMap<Socket, ServerResponse>();

  follow(server: Server): void {
    server.on('request', (request, response) => this.answers.set(request.socket, response));
  }

  started(socket: Socket): boolean {
    const answer = this.answers.get(socket);
    return answer !== undefined && answer.headersSent && !answer.writableFinished;
  }
}

/**
 * Fastify's `clientErrorHandler`: answers what Node's HTTP parser rejects (bad request lines, bytes,
 * headers, a request that did not arrive in time) with the contract's body, then closes the socket.
 * Logged at debug level by code only: these are the client's faults, and their input is never echoed.
 */
export function createClientErrorHandler(logger: LoggerService, answers: AnswersInProgress): (error: NodeJS.ErrnoException, socket: Socket) => void {
  return (error, socket) => {
    logger.debug?.(`Rejected a malformed or incomplete request (${error.code ?? 'no code'})`);
    const mapped = mapClientError(error.code);
    if (mapped && socket.writable && !answers.started(socket)) {
      socket.write(renderRawErrorAnswer(toErrorAnswer(mapped)));
    }
    socket.destroy();
  };
}
