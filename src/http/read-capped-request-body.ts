import type { Readable } from 'node:stream';

export interface CappedRequestBody {
  /** The whole body when it fits in the cap; empty when it did not. */
  bytes: Buffer;
  /** The bytes received: the whole body's size when it fits, else how far reading got past the cap. */
  size: number;
}

/**
 * Reads a request body of at most maxBytes. Once a body passes the cap, reading stops and the promise settles
 * at once with what was counted (more than the cap, nothing kept): an oversized body costs neither memory nor the
 * time to receive the rest of it, and its connection is closed after the answer (see configureHttp).
 * Plain stream events rather than an async iterator, which cost a promise per chunk on every request.
 */
export function readCappedRequestBody(stream: Readable, maxBytes: number): Promise<CappedRequestBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size <= maxBytes) {
        chunks.push(bytes);
        return;
      }
      stream.off('data', onData);
      stream.pause();
      resolve({ bytes: Buffer.alloc(0), size });
    };
    stream.on('data', onData);
    stream.once('end', () => resolve({ bytes: Buffer.concat(chunks), size }));
    stream.once('error', reject);
    // A client that goes away mid-body closes the stream without an error on some paths.
    stream.once('close', () => {
      if (!stream.readableEnded) reject(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    });
  });
}
