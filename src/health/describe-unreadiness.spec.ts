import { describeUnreadiness } from './describe-unreadiness';

describe('describeUnreadiness', () => {
  it('names a missing worker with the window in seconds', () => {
    expect(describeUnreadiness(['workers'], 30_000)).toBe('Not ready: no lookup worker seen for 30 s');
  });

  it('names several parts in a fixed order whatever order they come in', () => {
    expect(describeUnreadiness(['workers', 'redis', 'database'], 3000)).toBe(
      'Not ready: PostgreSQL does not answer; Redis does not answer; no lookup worker seen for 3 s',
    );
  });

  it('ignores parts it does not know and falls back to a plain message', () => {
    expect(describeUnreadiness(['disk'], 3000)).toBe('Not ready; try again later');
    expect(describeUnreadiness([], 3000)).toBe('Not ready; try again later');
  });
});
