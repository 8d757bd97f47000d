import { ApiError } from '../errors/api-error';
import { FEATURE_VALIDATION_MESSAGES, VALIDATION_MESSAGES } from '../errors/error-codes';
import { RequestValidationPipe } from '../validation/request-validation.pipe';
import { HistoryQuery, VerifyForm } from './console-forms';

const pipe = new RequestValidationPipe();
const FOUND = '1011001544208079';

/** What the one pipe makes of a form: the DTO, or the refusal's words. */
async function read(metatype: typeof VerifyForm | typeof HistoryQuery, type: 'body' | 'query', input: Record<string, unknown>): Promise<object | string> {
  try {
    return { ...((await pipe.transform(input, { type, metatype })) as object) };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'VALIDATION_ERROR') return error.publicMessage;
    throw error;
  }
}

describe('VerifyForm', () => {
  const verify = (form: Record<string, unknown>) => read(VerifyForm, 'body', { _csrf: 't', ...form });

  it('trims the number and leaves blank holder fields absent, so it is a plain verify', async () => {
    await expect(verify({ licenceNumber: ` ${FOUND} `, firstName: ' ', surname: '', dateOfBirth: '' })).resolves.toEqual({
      _csrf: 't',
      licenceNumber: FOUND,
      firstName: undefined,
      surname: undefined,
      dateOfBirth: undefined,
    });
  });

  it('keeps a holder check trimmed', async () => {
    await expect(verify({ licenceNumber: FOUND, firstName: ' Jane ', surname: 'Doe', dateOfBirth: '1988-07-15 ' })).resolves.toMatchObject({
      firstName: 'Jane',
      surname: 'Doe',
      dateOfBirth: '1988-07-15',
    });
  });

  it("refuses a bad number in the error table's words", async () => {
    await expect(verify({ licenceNumber: '12345' })).resolves.toBe(VALIDATION_MESSAGES.licenceNumber);
    await expect(verify({ licenceNumber: '' })).resolves.toBe(VALIDATION_MESSAGES.licenceNumber);
  });

  it("refuses the holder's fields in verify-holder's words once any is filled in, in its order", async () => {
    const { firstName, surname, dateOfBirth } = FEATURE_VALIDATION_MESSAGES;
    await expect(verify({ licenceNumber: FOUND, firstName: 'Jane' })).resolves.toBe(surname);
    await expect(verify({ licenceNumber: FOUND, dateOfBirth: '1988-07-15' })).resolves.toBe(firstName);
    await expect(verify({ licenceNumber: FOUND, firstName: 'J4ne', surname: 'D0e' })).resolves.toBe(firstName);
    await expect(verify({ licenceNumber: FOUND, firstName: 'Jane', surname: 'Doe', dateOfBirth: '1988-02-30' })).resolves.toBe(dateOfBirth);
    // The number first, as the page checked it before the holder.
    await expect(verify({ licenceNumber: '1', firstName: 'Jane' })).resolves.toBe(VALIDATION_MESSAGES.licenceNumber);
  });

  it("answers the form's own faults with the form's words, before the content's", async () => {
    const { consoleForm } = FEATURE_VALIDATION_MESSAGES;
    await expect(verify({ licenceNumber: FOUND, extra: '1' })).resolves.toBe(consoleForm);
    await expect(verify({})).resolves.toBe(consoleForm);
    await expect(verify({ licenceNumber: '1'.repeat(101) })).resolves.toBe(consoleForm);
    await expect(verify({ licenceNumber: [FOUND, FOUND] })).resolves.toBe(consoleForm);
    await expect(verify({ licenceNumber: FOUND, firstName: 'J'.repeat(101), surname: 'Doe' })).resolves.toBe(consoleForm);
    await expect(verify({ licenceNumber: FOUND, firstName: 'Jane', surname: ['Doe', 'Doe'] })).resolves.toBe(consoleForm);
    await expect(verify({ licenceNumber: FOUND, idempotencyKey: 'with space' })).resolves.toBe(consoleForm);
  });
});

describe('HistoryQuery', () => {
  const history = (query: Record<string, unknown>) => read(HistoryQuery, 'query', query);
  const blank = { licenceNumber: '', from: '', to: '', status: '', channel: '' };

  it("takes the form's blank fields as not sent: the API's defaults", async () => {
    await expect(history(blank)).resolves.toEqual({
      limit: 100,
      cursor: undefined,
      licenceNumber: undefined,
      from: undefined,
      to: undefined,
      status: undefined,
      channel: undefined,
    });
    await expect(history({ limit: '', cursor: '' })).resolves.toEqual({ limit: 100, cursor: undefined });
  });

  it('filters as GET /v1/verifications does', async () => {
    await expect(history({ ...blank, status: 'FOUND', channel: 'batch', limit: '5' })).resolves.toMatchObject({
      status: 'FOUND',
      channel: 'batch',
      limit: 5,
      licenceNumber: undefined,
    });
  });

  it("refuses a bad filter in the API's words, spaces included", async () => {
    const { verificationsLicenceNumber, verificationsStatus, verificationsQuery, cursor } = FEATURE_VALIDATION_MESSAGES;
    await expect(history({ ...blank, licenceNumber: ' ' })).resolves.toBe(verificationsLicenceNumber);
    await expect(history({ ...blank, status: 'LOST' })).resolves.toBe(verificationsStatus);
    await expect(history({ cursor: 'nope' })).resolves.toBe(cursor);
    await expect(history({ ...blank, page: '2' })).resolves.toBe(verificationsQuery);
  });
});
