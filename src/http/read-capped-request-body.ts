import type { Readable } from 'node:stream';

export interface CappedRequestBody {
  /** The whole body when it fits in the cap; empty when it did not. */
  bytes: Buffer;
  /** Every byte received, kept or not. */
  size: number;
}

/**
 * Reads a request body to its end but keeps at most maxBytes of it: past the cap, bytes are counted
 * and dropped. An oversized body so costs no memory, and the request still reaches the API key
 * check with a complete read (the client is answered 401 before being told its body is too large).
 * Plain stream events rather than an async iterator, which cost a promise per chunk on every request.
 */
export function readCappedRequestBody(stream: Readable, maxBytes: number): Promise<CappedRequestBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size <= maxBytes) chunks.push(bytes);
      else chunks.length = 0;
    });
    stream.once('end', () => resolve({ bytes: size <= maxBytes ? Buffer.concat(chunks) : Buffer.alloc(0), size }));
    stream.once('error', reject);
    // A client that goes away mid-body closes the stream without an error on some paths.
    stream.once('close', () => {
      if (!stream.readableEnded) reject(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    });
  });
}
