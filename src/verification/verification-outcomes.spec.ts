import { tallyTurn } from './verification-outcomes';

describe('tallyTurn', () => {
  it("counts a turn's answers per hash and per answer, in the order first seen", () => {
    const tally = tallyTurn([
      { key: 'a', answer: 'FOUND' },
      { key: 'b', answer: 'PENDING' },
      { key: 'a', answer: 'FOUND' },
      { key: 'a', answer: 'NOT_FOUND' },
    ]);
    expect([...tally].map(([key, counts]) => [key, [...counts]])).toEqual([
      [
        'a',
        [
          ['FOUND', 2],
          ['NOT_FOUND', 1],
        ],
      ],
      ['b', [['PENDING', 1]]],
    ]);
  });

  it('has nothing to count for an empty turn', () => {
    expect(tallyTurn([]).size).toBe(0);
  });
});
