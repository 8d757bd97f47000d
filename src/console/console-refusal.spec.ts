import { ApiError } from '../errors/api-error';
import { FEATURE_VALIDATION_MESSAGES, VALIDATION_MESSAGES } from '../errors/error-codes';
import { RejectedBody } from '../http/decode-request-body';
import { RefusalOnPage, refusedPage } from './console-refusal';

const refusal: RefusalOnPage = { form: 'body', page: (sent, words) => ({ sent, words }) };
const form = { licenceNumber: '12' };

describe('refusedPage', () => {
  it("shows the API's refusal of a form's content on the page, with the form as sent", () => {
    expect(refusedPage(refusal, form, ApiError.validation(VALIDATION_MESSAGES.licenceNumber))).toEqual({
      sent: form,
      words: VALIDATION_MESSAGES.licenceNumber,
    });
  });

  it("shows the service's refusal too, in its words", () => {
    expect(refusedPage(refusal, form, new ApiError('QUOTA_EXCEEDED'))).toEqual({ sent: form, words: new ApiError('QUOTA_EXCEEDED').publicMessage });
  });

  it('leaves a fault of the form itself to the error answer', () => {
    expect(refusedPage(refusal, { ...form, extra: '1' }, ApiError.validation(FEATURE_VALIDATION_MESSAGES.consoleForm))).toBeNull();
  });

  it('leaves a form that could not be read to the error answer: it has no fields to show again', () => {
    const error = ApiError.validation(VALIDATION_MESSAGES.notJson);
    expect([
      refusedPage(refusal, undefined, error),
      refusedPage(refusal, new RejectedBody(VALIDATION_MESSAGES.tooLarge), error),
      refusedPage(refusal, ['a'], error),
    ]).toEqual([null, null, null]);
  });

  it('leaves anything but an API error (a fault of ours) to the error answer', () => {
    expect(refusedPage(refusal, form, new Error('boom'))).toBeNull();
  });
});
