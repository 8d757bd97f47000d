import { watchlistHasRoom } from './watchlist-room';

describe('watchlistHasRoom', () => {
  it('admits new entries up to the default cap exactly, and not one more', () => {
    expect(watchlistHasRoom({ watched: 9998, adding: 2, userLimit: null }, 10000)).toBe(true);
    expect(watchlistHasRoom({ watched: 9998, adding: 3, userLimit: null }, 10000)).toBe(false);
    expect(watchlistHasRoom({ watched: 10000, adding: 1, userLimit: null }, 10000)).toBe(false);
  });

  it("takes the user's own cap over the default, higher or lower, 0 included", () => {
    expect(watchlistHasRoom({ watched: 10000, adding: 5000, userLimit: 15000 }, 10000)).toBe(true);
    expect(watchlistHasRoom({ watched: 3, adding: 1, userLimit: 3 }, 10000)).toBe(false);
    expect(watchlistHasRoom({ watched: 0, adding: 1, userLimit: 0 }, 10000)).toBe(false);
  });

  it('always lets entries already watched be updated, even above a lowered cap', () => {
    expect(watchlistHasRoom({ watched: 10000, adding: 0, userLimit: null }, 10000)).toBe(true);
    expect(watchlistHasRoom({ watched: 50, adding: 0, userLimit: 10 }, 10000)).toBe(true);
    expect(watchlistHasRoom({ watched: 0, adding: 0, userLimit: 0 }, 10000)).toBe(true);
  });
});
