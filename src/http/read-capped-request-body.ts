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
 */
export async function readCappedRequestBody(stream: Readable, maxBytes: number): Promise<CappedRequestBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size <= maxBytes) chunks.push(bytes);
    else chunks.length = 0;
  }
  return { bytes: size <= maxBytes ? Buffer.concat(chunks) : Buffer.alloc(0), size };
}
