import { forEachLimited } from './for-each-limited';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('forEachLimited', () => {
  it('runs the task once for every value', async () => {
    const seen: number[] = [];
    await forEachLimited([1, 2, 3, 4, 5], 2, async (value) => {
      await tick();
      seen.push(value);
    });
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('never has more than `limit` tasks running at once, and reaches the limit', async () => {
    let running = 0;
    let most = 0;
    await forEachLimited(
      Array.from({ length: 20 }, (_, index) => index),
      3,
      async () => {
        running += 1;
        most = Math.max(most, running);
        await tick();
        running -= 1;
      },
    );
    expect(most).toBe(3);
  });

  it('starts no task for no values', async () => {
    const task = jest.fn(async () => undefined);
    await forEachLimited([], 4, task);
    expect(task).not.toHaveBeenCalled();
  });

  it('rejects with the failure of a task', async () => {
    await expect(
      forEachLimited([1, 2, 3], 2, async (value) => {
        if (value === 2) throw new Error('two failed');
      }),
    ).rejects.toThrow('two failed');
  });
});
