import { PassThrough, Readable } from 'node:stream';
import { readCappedRequestBody } from './read-capped-request-body';

const streamOf = (...chunks: string[]) => Readable.from(chunks.map((chunk) => Buffer.from(chunk)));

describe('readCappedRequestBody', () => {
  it('keeps a body that fits, chunks joined in order', async () => {
    const body = await readCappedRequestBody(streamOf('{"a"', ':1', '}'), 16);
    expect(body.bytes.toString()).toBe('{"a":1}');
    expect(body.size).toBe(7);
  });

  it('keeps a body of exactly the cap', async () => {
    const body = await readCappedRequestBody(streamOf('12345', '678'), 8);
    expect(body.bytes.toString()).toBe('12345678');
    expect(body.size).toBe(8);
  });

  it('stops reading a body one byte over the cap, counts what came and keeps nothing', async () => {
    const body = await readCappedRequestBody(streamOf('12345', '6789'), 8);
    expect(body.bytes.length).toBe(0);
    expect(body.size).toBe(9);
  });

  it('settles as soon as a body passes the cap, without waiting for the rest, and reads no further', async () => {
    const stream = new PassThrough();
    const reading = readCappedRequestBody(stream, 8);
    stream.write('12345');
    stream.write('6789');
    const body = await reading;
    stream.write('more that nobody reads');
    expect(body).toEqual({ bytes: Buffer.alloc(0), size: 9 });
    expect([stream.isPaused(), stream.listenerCount('data')]).toEqual([true, 0]);
  });

  it('gives an empty body for an empty stream', async () => {
    expect(await readCappedRequestBody(streamOf(), 8)).toEqual({ bytes: Buffer.alloc(0), size: 0 });
  });

  it('rejects with the stream error when the stream fails mid-body', async () => {
    const stream = new PassThrough();
    const reading = readCappedRequestBody(stream, 8);
    stream.write('{"a"');
    stream.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    await expect(reading).rejects.toMatchObject({ code: 'ECONNRESET', message: 'aborted' });
  });

  it('rejects as a premature close when the stream closes before its end without an error', async () => {
    const stream = new PassThrough();
    const reading = readCappedRequestBody(stream, 8);
    stream.write('{"a"');
    stream.destroy();
    await expect(reading).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
  });
});
