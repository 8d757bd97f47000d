import type { Readable } from 'node:stream';

export interface CappedBody {
  /** UTF-8 text of what was read: the whole body, or the part before the cap. */
  text: string;
  /** True when the body went past the cap and was abandoned. */
  exceeded: boolean;
}

/**
 * Reads a body chunk by chunk and gives up (destroying the stream) as soon as it grows past
 * maxBytes, so an oversized answer is never held in memory.
 */
export async function readCappedBody(body: Readable, maxBytes: number): Promise<CappedBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (size + bytes.length > maxBytes) {
      body.destroy();
      return { text: Buffer.concat(chunks).toString('utf8'), exceeded: true };
    }
    chunks.push(bytes);
    size += bytes.length;
  }
  return { text: Buffer.concat(chunks).toString('utf8'), exceeded: false };
}
