import { Readable } from 'node:stream';
import { readCappedBody } from './read-capped-body';

describe('readCappedBody', () => {
  it('reads a body within the cap whole, decoding UTF-8 split across chunks', async () => {
    const bytes = Buffer.from('<p>FRANÇOIS</p>');
    const splitInsideCedilla = bytes.indexOf(0xc3) + 1;
    const body = Readable.from([bytes.subarray(0, splitInsideCedilla), bytes.subarray(splitInsideCedilla)]);

    await expect(readCappedBody(body, bytes.length)).resolves.toEqual({ text: '<p>FRANÇOIS</p>', exceeded: false });
  });

  it('stops pulling from an endless body once past the cap, and destroys it', async () => {
    let chunksPulled = 0;
    const endless = new Readable({
      read() {
        chunksPulled += 1;
        this.push(Buffer.alloc(1024, 'x'));
      },
    });

    const result = await readCappedBody(endless, 10 * 1024);

    expect(result.exceeded).toBe(true);
    expect(result.text).toBe('x'.repeat(10 * 1024));
    expect(endless.destroyed).toBe(true);
    // Readable reads ahead up to its high-water mark (16 KiB) and no further.
    expect(chunksPulled).toBeLessThanOrEqual(10 + 17);
  });
});
