import { setImmediate as nextTurn } from 'node:timers/promises';
import { batchPerTurn } from './batch-per-turn';

describe('batchPerTurn', () => {
  function recorder() {
    const batches: number[][] = [];
    const loader = batchPerTurn<number, number>(async (keys) => {
      batches.push([...keys]);
      return keys.map((key) => (key < 0 ? new Error(`negative ${key}`) : key * 10));
    });
    return { batches, loader };
  }

  it('runs the calls made in one turn as one batch, and answers each its own value', async () => {
    const { batches, loader } = recorder();
    const answers = await Promise.all([loader.load(1), loader.load(2), loader.load(1), loader.load(3)]);
    expect(answers).toEqual([10, 20, 10, 30]);
    expect(batches).toEqual([[1, 2, 1, 3]]);
  });

  it('keeps nothing between turns: a key asked again in a later turn is run again', async () => {
    const { batches, loader } = recorder();
    await loader.load(1);
    await nextTurn();
    await loader.load(1);
    expect(batches).toEqual([[1], [1]]);
  });

  it('joins calls from separate callbacks of the same turn, as requests arriving together make them', async () => {
    const { batches, loader } = recorder();
    const answers = await new Promise<number[]>((resolve) => {
      const pending: Promise<number>[] = [];
      // Each callback is its own tick, as each request's handler is; the batch runs after them.
      process.nextTick(() => pending.push(loader.load(4)));
      queueMicrotask(() => pending.push(loader.load(5)));
      setImmediate(() => void Promise.all(pending).then(resolve));
    });
    expect(answers.sort()).toEqual([40, 50]);
    expect(batches).toHaveLength(1);
  });

  it('fails only the calls whose key failed', async () => {
    const { loader } = recorder();
    const [good, bad] = await Promise.allSettled([loader.load(2), loader.load(-1)]);
    expect(good).toEqual({ status: 'fulfilled', value: 20 });
    expect(bad).toEqual({ status: 'rejected', reason: new Error('negative -1') });
  });

  it('fails every call of a batch whose run failed, with its error', async () => {
    const loader = batchPerTurn<number, number>(() => Promise.reject(new Error('Connection is closed.')));
    const outcomes = await Promise.allSettled([loader.load(1), loader.load(2)]);
    expect(outcomes).toEqual([
      { status: 'rejected', reason: new Error('Connection is closed.') },
      { status: 'rejected', reason: new Error('Connection is closed.') },
    ]);
  });
});
