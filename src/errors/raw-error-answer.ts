import { STATUS_CODES } from 'node:http';
import { ErrorAnswer } from './map-framework-error';

/**
 * A complete HTTP/1.1 error answer as bytes, for a socket that Node's HTTP parser gave up on:
 * no request object exists there, so Fastify and Nest cannot answer it. The connection closes after it.
 */
export function renderRawErrorAnswer({ status, body }: ErrorAnswer): string {
  const json = JSON.stringify(body);
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(json)}\r\n` +
    'Connection: close\r\n' +
    `\r\n${json}`
  );
}
