import { RequestValidationPipe } from '../../validation/request-validation.pipe';
import { RecordsExportQuery, VerificationsQuery } from './verifications-query.dto';

const pipe = new RequestValidationPipe();
const read = (metatype: new () => object, query: Record<string, unknown>) => pipe.transform(query, { type: 'query', metatype });
const refusal = (message: string) => expect.objectContaining({ code: 'VALIDATION_ERROR', publicMessage: message });

describe.each([
  ['the history', VerificationsQuery],
  ['the export', RecordsExportQuery],
])('the period of %s', (_list, metatype) => {
  it('takes an instant of up to 40 characters, as the document says', async () => {
    const from = `2026-11-01T00:00:00.${'0'.repeat(19)}Z`;
    await expect(read(metatype, { from, to: '2026-12-01' })).resolves.toMatchObject({ from, to: '2026-12-01' });
  });

  it('refuses a longer one with the field’s own text', async () => {
    const long = `2026-11-01T00:00:00.${'0'.repeat(20)}Z`;
    await expect(read(metatype, { from: long })).rejects.toEqual(refusal('from must be a date-time such as 2026-11-01T00:00:00Z'));
    await expect(read(metatype, { to: long })).rejects.toEqual(refusal(expect.stringMatching(/^to must be/)));
  });
});
