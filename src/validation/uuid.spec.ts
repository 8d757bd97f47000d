import { isUuid } from './uuid';

const ID = '0b6f3f8e-5c1d-4f7a-9e2b-3c4d5e6f7a8b';

describe('isUuid', () => {
  it('accepts a UUID in either case, and nothing else', () => {
    expect([ID, ID.toUpperCase(), 'x', `${ID}0`, ` ${ID}`, ID.replace(/-/g, ''), 42].map(isUuid)).toEqual([true, true, false, false, false, false, false]);
  });
});
