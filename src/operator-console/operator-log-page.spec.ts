import { readNewestFirstCursor } from '../validation/paging';
import { operatorLogPage } from './operator-log-page';

const line = (n: number) => ({ id: `00000000-0000-4000-8000-00000000000${n}`, occurredAt: `2026-11-2${n}T10:00:00.00${n}Z` });

describe('a page of the operators’ log', () => {
  it('shows the first limit lines and points past the last one shown when one more row came', () => {
    const page = operatorLogPage([line(3), line(2), line(1)], 2);
    expect(page.lines).toEqual([line(3), line(2)]);
    expect(readNewestFirstCursor(page.nextCursor!)).toEqual({ at: '2026-11-22T10:00:00.002Z', id: line(2).id });
  });

  it('has no next page when no more than limit rows came', () => {
    expect(operatorLogPage([line(2), line(1)], 2)).toEqual({ lines: [line(2), line(1)], nextCursor: null });
    expect(operatorLogPage([], 2)).toEqual({ lines: [], nextCursor: null });
  });
});
