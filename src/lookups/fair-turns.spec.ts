import { freeSlots, mustPark, planDispatch, takeTurns } from './fair-turns';

describe('takeTurns', () => {
  it('gives each user one lookup per turn, in user id order', () => {
    expect(
      takeTurns(
        [
          { userId: 'b', pending: 5 },
          { userId: 'a', pending: 5 },
        ],
        null,
        4,
      ),
    ).toEqual({
      turns: [
        { userId: 'a', count: 2 },
        { userId: 'b', count: 2 },
      ],
      lastServed: 'b',
    });
  });

  it('starts after the user served last, so an odd slot goes round', () => {
    const users = [
      { userId: 'a', pending: 9 },
      { userId: 'b', pending: 9 },
      { userId: 'c', pending: 9 },
    ];
    const first = takeTurns(users, null, 1);
    expect(first).toEqual({ turns: [{ userId: 'a', count: 1 }], lastServed: 'a' });
    const second = takeTurns(users, first.lastServed, 1);
    expect(second).toEqual({ turns: [{ userId: 'b', count: 1 }], lastServed: 'b' });
    expect(takeTurns(users, 'c', 2)).toEqual({
      turns: [
        { userId: 'a', count: 1 },
        { userId: 'b', count: 1 },
      ],
      lastServed: 'b',
    });
  });

  it('starts at the first user after a last-served user who has left', () => {
    expect(
      takeTurns(
        [
          { userId: 'a', pending: 1 },
          { userId: 'c', pending: 1 },
        ],
        'b',
        1,
      ).turns,
    ).toEqual([{ userId: 'c', count: 1 }]);
  });

  it('lets a small list finish beside a large one, and gives its unused share to the others', () => {
    const { turns } = takeTurns(
      [
        { userId: 'big', pending: 1000 },
        { userId: 'small', pending: 3 },
      ],
      null,
      50,
    );
    expect(turns).toEqual([
      { userId: 'big', count: 47 },
      { userId: 'small', count: 3 },
    ]);
  });

  it('takes no more than is pending, and nothing without slots or users', () => {
    expect(takeTurns([{ userId: 'a', pending: 2 }], null, 10).turns).toEqual([{ userId: 'a', count: 2 }]);
    expect(takeTurns([{ userId: 'a', pending: 2 }], 'z', 0)).toEqual({ turns: [], lastServed: 'z' });
    expect(takeTurns([], null, 10)).toEqual({ turns: [], lastServed: null });
    expect(takeTurns([{ userId: 'a', pending: 0 }], null, 10).turns).toEqual([]);
  });
});

describe('planDispatch', () => {
  it('fills the slots from the most urgent priority first, users taking turns within each', () => {
    const plan = planDispatch(
      [
        { priority: 20, users: [{ userId: 'a', pending: 10 }] },
        {
          priority: 10,
          users: [
            { userId: 'a', pending: 2 },
            { userId: 'b', pending: 1 },
          ],
        },
      ],
      new Map([[20, 'a']]),
      5,
    );
    expect(plan).toEqual([
      {
        priority: 10,
        turns: [
          { userId: 'a', count: 2 },
          { userId: 'b', count: 1 },
        ],
        lastServed: 'a',
      },
      { priority: 20, turns: [{ userId: 'a', count: 2 }], lastServed: 'a' },
    ]);
  });

  it('leaves a less urgent priority nothing while a more urgent one takes every slot', () => {
    const plan = planDispatch(
      [
        { priority: 10, users: [{ userId: 'a', pending: 100 }] },
        { priority: 20, users: [{ userId: 'b', pending: 100 }] },
      ],
      new Map(),
      3,
    );
    expect(plan.map((entry) => entry.turns)).toEqual([[{ userId: 'a', count: 3 }], []]);
  });
});

describe('mustPark', () => {
  it('lets a lookup into the queue at once while the queue has room and the user has nothing parked', () => {
    expect(mustPark(0, 0, 50)).toBe(false);
    expect(mustPark(0, 49, 50)).toBe(false);
  });

  it('parks it once the queue is full, or behind the same user’s parked lookups', () => {
    expect(mustPark(0, 50, 50)).toBe(true);
    expect(mustPark(1, 0, 50)).toBe(true);
  });
});

describe('freeSlots', () => {
  it('tops the queue up to its target, never below zero', () => {
    expect(freeSlots(0, 50)).toBe(50);
    expect(freeSlots(45, 50)).toBe(5);
    expect(freeSlots(80, 50)).toBe(0);
  });
});
