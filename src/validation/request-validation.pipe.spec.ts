import { OptionalBody, UnknownFieldMessage } from './request-dto.decorators';
import { VerifyLicenceDto } from '../verification/dto/verify-licence.dto';
import { IsReference } from './reference.decorator';
import { CsvText, RejectedBody } from '../http/decode-request-body';
import { RequestValidationPipe } from './request-validation.pipe';

const NUMBER = '1011001544208079';
const pipe = new RequestValidationPipe();
const verifyBody = (body: unknown) => pipe.transform(body, { type: 'body', metatype: VerifyLicenceDto });
const refusal = (message: string) => expect.objectContaining({ code: 'VALIDATION_ERROR', status: 400, publicMessage: message });

@OptionalBody()
@UnknownFieldMessage('only a note')
class NoteDto {
  @IsReference('bad note', 'A note')
  note?: string | null;
}

describe('RequestValidationPipe', () => {
  it('gives the route its DTO, and nothing the DTO does not declare', async () => {
    const dto = await verifyBody({ licenceNumber: NUMBER });
    expect(dto).toBeInstanceOf(VerifyLicenceDto);
    expect(dto).toEqual({ licenceNumber: NUMBER });
  });

  it('answers a body the reader refused with the reader’s text', async () => {
    await expect(verifyBody(new RejectedBody('Request body is nested too deeply'))).rejects.toEqual(refusal('Request body is nested too deeply'));
  });

  it('reads a CSV body with its route’s reader, then validates what it read', async () => {
    await expect(verifyBody(new CsvText('x', () => ({ licenceNumber: NUMBER })))).resolves.toEqual({ licenceNumber: NUMBER });
    await expect(verifyBody(new CsvText('x', () => new RejectedBody('Row 2: bad')))).rejects.toEqual(refusal('Row 2: bad'));
  });

  it('refuses a missing body, unless the DTO allows none', async () => {
    await expect(verifyBody(undefined)).rejects.toEqual(refusal('Request body must be a JSON object'));
    await expect(verifyBody(null)).rejects.toEqual(refusal('Request body must be a JSON object'));
    await expect(pipe.transform(undefined, { type: 'body', metatype: NoteDto })).resolves.toEqual(new NoteDto());
  });

  it.each([
    ['missing', {}],
    ['a number', { licenceNumber: 1011001544208079 }],
    ['15 digits', { licenceNumber: NUMBER.slice(1) }],
    ['with a trailing newline', { licenceNumber: `${NUMBER}\n` }],
    ['non-ASCII digits', { licenceNumber: '١٠١١٠٠١٥٤٤٢٠٨٠٧٩' }],
    ['null', { licenceNumber: null }],
    ['an array', { licenceNumber: [NUMBER] }],
  ])('refuses a licence number that is %s with the DTO’s text', async (_what, body) => {
    await expect(verifyBody(body)).rejects.toEqual(refusal('Licence number must be 16 digits'));
  });

  it.each(['extra', 'constructor', 'prototype', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__'])(
    'refuses the unknown field %s with the DTO’s own text, before a bad number',
    async (field) => {
      await expect(verifyBody(JSON.parse(`{"licenceNumber":"${NUMBER}","${field}":"x"}`))).rejects.toEqual(
        refusal('Request body may only contain licenceNumber'),
      );
      await expect(verifyBody(JSON.parse(`{"licenceNumber":"1","${field}":{"polluted":true}}`))).rejects.toEqual(
        refusal('Request body may only contain licenceNumber'),
      );
      expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    },
  );

  it('answers the generic text for an unknown field of a DTO that names none', async () => {
    class BareDto {}
    await expect(pipe.transform({ x: 1 }, { type: 'query', metatype: BareDto })).rejects.toEqual(refusal('Invalid request'));
  });

  it('leaves values it has no DTO for as they are', async () => {
    const user = { userId: 'u', constructor: 'kept' };
    await expect(pipe.transform(user, { type: 'custom', metatype: Object })).resolves.toBe(user);
    await expect(pipe.transform('abc', { type: 'param', metatype: String, data: 'id' })).resolves.toBe('abc');
  });
});
