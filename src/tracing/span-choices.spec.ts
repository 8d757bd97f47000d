import { SpanKind } from '@opentelemetry/api';
import { beginsTrace, sqlOperation } from './span-choices';

describe('beginsTrace', () => {
  it('lets requests, jobs taken and jobs added begin a trace', () => {
    expect(beginsTrace(SpanKind.SERVER)).toBe(true);
    expect(beginsTrace(SpanKind.CONSUMER)).toBe(true);
    expect(beginsTrace(SpanKind.PRODUCER)).toBe(true);
  });

  it('refuses housekeeping and calls made outside traced work', () => {
    expect(beginsTrace(SpanKind.INTERNAL)).toBe(false);
    expect(beginsTrace(SpanKind.CLIENT)).toBe(false);
  });
});

describe('sqlOperation', () => {
  it('is the first word, upper case', () => {
    expect(sqlOperation('select 1')).toBe('SELECT');
    expect(sqlOperation('\n  WITH charged AS (UPDATE quota SET used = used + 1) SELECT 1')).toBe('WITH');
  });

  it('is SQL for text that starts with no word', () => {
    expect(sqlOperation('(SELECT 1) UNION (SELECT 2)')).toBe('SQL');
    expect(sqlOperation('')).toBe('SQL');
  });
});
