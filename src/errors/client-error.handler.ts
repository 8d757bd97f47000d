import type { LoggerService } from '@nestjs/common';
import type { Socket } from 'node:net';
import { mapClientError, toErrorAnswer } from './map-framework-error';
import { renderRawErrorAnswer } from './raw-error-answer';

/** Node keeps the answer in progress on the socket; once its headers are out, nothing else may be written. */
function answerAlreadyStarted(socket: Socket): boolean {
  return (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
}

/**
 * Fastify's `clientErrorHandler`: answers what Node's HTTP parser rejects (bad request lines, bytes,
 * headers, a request that did not arrive in time) with the contract's body, then closes the socket.
 * Logged at debug level by code only: these are the client's faults, and their input is never echoed.
 */
export function createClientErrorHandler(logger: LoggerService): (error: NodeJS.ErrnoException, socket: Socket) => void {
  return (error, socket) => {
    logger.debug?.(`Rejected a malformed or incomplete request (${error.code ?? 'no code'})`);
    const mapped = mapClientError(error.code);
    if (mapped && socket.writable && !answerAlreadyStarted(socket)) {
      socket.write(renderRawErrorAnswer(toErrorAnswer(mapped)));
    }
    socket.destroy();
  };
}
