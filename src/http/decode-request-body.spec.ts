import fc from 'fast-check';
import { FEATURE_VALIDATION_MESSAGES, VALIDATION_MESSAGES } from '../errors/error-codes';
import {
  CsvText,
  DECODED_MEDIA_TYPES,
  FORM_BODY,
  decodeRequestBody,
  JSON_BODY,
  MAX_NESTING_DEPTH,
  MAX_REQUEST_BODY_BYTES,
  JSON_ROSTER_BODY,
  RejectedBody,
} from './decode-request-body';

/** A route that takes CSV too; what its reader makes of the text is the route's business. */
const readCsv = (text: string) => ({ text });
const ROSTER_BODY = { ...JSON_ROSTER_BODY, csv: readCsv };

const JSON_TYPE = 'application/json' as const;
const body = (text: string) => Buffer.from(text, 'utf8');

/** The reason of a rejection, or a marker that the body was accepted. */
function reasonOf(result: object | RejectedBody): string {
  return result instanceof RejectedBody ? result.reason : 'ACCEPTED';
}

/** A valid JSON object of exactly `size` bytes, padded with spaces before the closing brace. */
function paddedObject(size: number, prefix = '{"licenceNumber":"1234567890123456"'): Buffer {
  const head = Buffer.from(prefix, 'utf8');
  const padding = size - head.length - 1;
  if (padding < 0) throw new Error('size too small for the prefix');
  const buffer = Buffer.concat([head, Buffer.from(' '.repeat(padding)), Buffer.from('}')]);
  expect(buffer.length).toBe(size);
  return buffer;
}

describe('decodeRequestBody', () => {
  it('sets the limit at 16 KiB', () => {
    expect(MAX_REQUEST_BODY_BYTES).toBe(16384);
  });

  describe('accepts a JSON object', () => {
    it('from the application/json parser', () => {
      expect(decodeRequestBody(JSON_TYPE, body('{"licenceNumber":"1234567890123456"}'))).toEqual({
        licenceNumber: '1234567890123456',
      });
    });

    it('that is empty ({})', () => {
      expect(decodeRequestBody(JSON_TYPE, body('{}'))).toEqual({});
    });

    it('with nested values and unknown fields, unchanged', () => {
      expect(decodeRequestBody(JSON_TYPE, body('{"licenceNumber":"1","extra":{"n":[1,null,true]}}'))).toEqual({
        licenceNumber: '1',
        extra: { n: [1, null, true] },
      });
    });

    it('with a non-ASCII string decoded as UTF-8', () => {
      expect(decodeRequestBody(JSON_TYPE, body('{"name":"Zoë"}'))).toEqual({ name: 'Zoë' });
    });

    it('with a "constructor" key that has no prototype', () => {
      expect(decodeRequestBody(JSON_TYPE, body('{"constructor":"x"}'))).toEqual({ constructor: 'x' });
    });

    it("with a __proto__ key kept as an own key, the object's prototype untouched", () => {
      const decoded = decodeRequestBody(JSON_TYPE, body('{"__proto__":{"isAdmin":true}}'));
      expect(Object.keys(decoded)).toEqual(['__proto__']);
      expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
      expect((decoded as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    });

    it('with constructor.prototype kept as plain nested keys', () => {
      const decoded = decodeRequestBody(JSON_TYPE, body('{"constructor":{"prototype":{"isAdmin":true}}}'));
      expect(Object.keys(decoded)).toEqual(['constructor']);
      expect(({} as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    });

    it('that is a plain object, not a RejectedBody', () => {
      expect(decodeRequestBody(JSON_TYPE, body('{"a":1}'))).not.toBeInstanceOf(RejectedBody);
    });
  });

  describe('rejects a body that is not valid JSON, with its own text', () => {
    it.each([
      ['malformed JSON', '{"licenceNumber":'],
      ['malformed JSON with a trailing comma', '{"a":1,}'],
      ['single-quoted JSON', "{'a':1}"],
      ['a body of white space only', '   \n  '],
    ])('rejects %s as not valid JSON', (_what, text) => {
      expect(reasonOf(decodeRequestBody(JSON_TYPE, body(text)))).toBe(VALIDATION_MESSAGES.invalidJson);
    });
  });

  describe('rejects a body that is not a JSON object', () => {
    it.each([
      ['an empty body', ''],
      ['a JSON array', '[{"licenceNumber":"1234567890123456"}]'],
      ['an empty JSON array', '[]'],
      ['a JSON string', '"1234567890123456"'],
      ['a JSON number', '1234567890123456'],
      ['JSON true', 'true'],
      ['JSON null', 'null'],
    ])('rejects %s as not a JSON object', (_what, text) => {
      expect(reasonOf(decodeRequestBody(JSON_TYPE, body(text)))).toBe(VALIDATION_MESSAGES.notJson);
    });

    it('returns a RejectedBody instance', () => {
      expect(decodeRequestBody(JSON_TYPE, body('null'))).toBeInstanceOf(RejectedBody);
    });
  });

  describe('rejects a content type other than application/json', () => {
    it.each([
      ['another type, or none (the catch-all parser)', undefined],
      ['a form', 'application/x-www-form-urlencoded' as const],
      ['CSV, on a route that does not take it', 'text/csv' as const],
    ])('rejects %s', (_what, mediaType) => {
      expect(reasonOf(decodeRequestBody(mediaType, body('{"a":1}')))).toBe(VALIDATION_MESSAGES.contentType);
    });
  });

  describe('nesting depth', () => {
    const nested = (depth: number, open = '[', close = ']') =>
      `{"licenceNumber":"1234567890123456","a":${open.repeat(depth - 1)}${close.repeat(depth - 1)}}`;

    it('sets the limit at 8 levels', () => {
      expect(MAX_NESTING_DEPTH).toBe(8);
    });

    it('accepts a body nested exactly MAX_NESTING_DEPTH levels deep', () => {
      expect(reasonOf(decodeRequestBody(JSON_TYPE, body(nested(MAX_NESTING_DEPTH))))).toBe('ACCEPTED');
    });

    it.each([
      ['arrays one level too deep', nested(MAX_NESTING_DEPTH + 1)],
      ['objects one level too deep', `${'{"a":'.repeat(MAX_NESTING_DEPTH + 1)}1${'}'.repeat(MAX_NESTING_DEPTH + 1)}`],
      ['1,500 levels of arrays (3 KB)', nested(1500)],
      ['8,000 levels of arrays, under 16 KiB', nested(8000)],
      ['unclosed brackets', `{"a":${'['.repeat(MAX_NESTING_DEPTH + 5)}`],
    ])('rejects %s as too deep', (_what, text) => {
      expect(reasonOf(decodeRequestBody(JSON_TYPE, body(text)))).toBe(VALIDATION_MESSAGES.tooDeep);
    });

    it('accepts many brackets side by side: depth counts, not how many', () => {
      const text = `{"licenceNumber":"1234567890123456","a":[${Array(MAX_NESTING_DEPTH * 2)
        .fill('{"b":[]}')
        .join(',')}]}`;
      expect(reasonOf(decodeRequestBody(JSON_TYPE, body(text)))).toBe('ACCEPTED');
    });

    it('does not count brackets inside strings, escaped quotes included', () => {
      const text = `{"licenceNumber":"1234567890123456","a":"\\"${'[{'.repeat(50)}"}`;
      expect(decodeRequestBody(JSON_TYPE, body(text))).toEqual({
        licenceNumber: '1234567890123456',
        a: `"${'[{'.repeat(50)}`,
      });
    });

    it('counts brackets after a string that ends in an escaped backslash', () => {
      const text = `{"a":"x\\\\","b":${'['.repeat(MAX_NESTING_DEPTH)}${']'.repeat(MAX_NESTING_DEPTH)}}`;
      expect(reasonOf(decodeRequestBody(JSON_TYPE, body(text)))).toBe(VALIDATION_MESSAGES.tooDeep);
    });
  });

  describe('size limit', () => {
    it('accepts a valid JSON object of exactly MAX_REQUEST_BODY_BYTES bytes', () => {
      expect(decodeRequestBody(JSON_TYPE, paddedObject(MAX_REQUEST_BODY_BYTES))).toEqual({
        licenceNumber: '1234567890123456',
      });
    });

    it('rejects a valid JSON object of MAX_REQUEST_BODY_BYTES + 1 bytes as too large', () => {
      expect(reasonOf(decodeRequestBody(JSON_TYPE, paddedObject(MAX_REQUEST_BODY_BYTES + 1)))).toBe(VALIDATION_MESSAGES.tooLarge);
    });

    it('counts bytes, not characters: a multi-byte body one byte over the limit is too large', () => {
      // "é" is two bytes in UTF-8, so this body has fewer characters than bytes.
      const buffer = paddedObject(MAX_REQUEST_BODY_BYTES + 1, '{"name":"éééé"');
      expect(buffer.toString('utf8').length).toBe(MAX_REQUEST_BODY_BYTES - 3);
      expect(reasonOf(decodeRequestBody(JSON_TYPE, buffer))).toBe(VALIDATION_MESSAGES.tooLarge);
    });

    it('rejects as too large by the size received, when the reader kept none of an oversized body', () => {
      expect(reasonOf(decodeRequestBody(JSON_TYPE, Buffer.alloc(0), JSON_BODY, MAX_REQUEST_BODY_BYTES + 1))).toBe(VALIDATION_MESSAGES.tooLarge);
    });

    it('rejects an oversized body as too large before looking at its content type', () => {
      expect(reasonOf(decodeRequestBody(undefined, Buffer.alloc(0), JSON_BODY, 2 * 1024 * 1024))).toBe(VALIDATION_MESSAGES.tooLarge);
    });

    it('accepts a multi-byte body of exactly the limit in bytes', () => {
      expect(decodeRequestBody(JSON_TYPE, paddedObject(MAX_REQUEST_BODY_BYTES, '{"name":"éééé"'))).toEqual({
        name: 'éééé',
      });
    });
  });

  describe('properties (fast-check)', () => {
    /** Nesting depth of a parsed JSON value: 0 for a scalar, 1 for a flat object or array. */
    function depthOf(value: unknown): number {
      if (value === null || typeof value !== 'object') return 0;
      return 1 + Math.max(0, ...Object.values(value).map(depthOf));
    }

    /** An object with one value wrapped in 0 to 12 arrays or objects, so depths spread around the limit. */
    const nestedObject = fc
      .record({
        key: fc.string(),
        inner: fc.jsonValue({ maxDepth: 2 }),
        wrappers: fc.array(fc.constantFrom('array', 'object'), { maxLength: 12 }),
      })
      .map(({ key, inner, wrappers }) => ({
        [key]: wrappers.reduce<unknown>((value, wrapper) => (wrapper === 'array' ? [value] : { k: value }), inner),
      }));

    it('never throws, whatever the bytes and media type', () => {
      fc.assert(
        fc.property(fc.option(fc.constantFrom(...DECODED_MEDIA_TYPES), { nil: undefined }), fc.uint8Array({ maxLength: 200 }), (mediaType, bytes) => {
          decodeRequestBody(mediaType, Buffer.from(bytes));
        }),
        { numRuns: 2000 },
      );
    });

    it('rejects a JSON object as too deep exactly when it nests deeper than MAX_NESTING_DEPTH', () => {
      fc.assert(
        fc.property(nestedObject, (object) => {
          const text = JSON.stringify(object);
          const result = decodeRequestBody(JSON_TYPE, body(text));
          if (depthOf(object) > MAX_NESTING_DEPTH) expect(reasonOf(result)).toBe(VALIDATION_MESSAGES.tooDeep);
          else expect(result).toEqual(JSON.parse(text)); // what JSON keeps (-0 becomes 0)
        }),
        { numRuns: 2000 },
      );
    });
  });

  describe('a route that takes rosters (ROSTER_BODY)', () => {
    it('accepts text/csv as UTF-8 text, BOM kept for the CSV parser, and reads it with the route reader only when asked', () => {
      const decoded = decodeRequestBody('text/csv', body('\uFEFFlicenceNumber\r\n1'), ROSTER_BODY);
      expect(decoded).toEqual(new CsvText('\uFEFFlicenceNumber\r\n1', readCsv));
      expect((decoded as CsvText).read()).toEqual({ text: '\uFEFFlicenceNumber\r\n1' });
    });

    it('refuses CSV that is not UTF-8', () => {
      expect(reasonOf(decodeRequestBody('text/csv', Buffer.from([0x41, 0xe9, 0x42]), ROSTER_BODY))).toBe(FEATURE_VALIDATION_MESSAGES.csvEncoding);
    });

    it('still reads JSON objects', () => {
      expect(decodeRequestBody(JSON_TYPE, body('{"licenceNumbers":[]}'), ROSTER_BODY)).toEqual({ licenceNumbers: [] });
    });

    it('names both accepted types when refusing another', () => {
      expect(reasonOf(decodeRequestBody(undefined, body('x'), ROSTER_BODY))).toBe(FEATURE_VALIDATION_MESSAGES.batchContentType);
    });

    it('takes 512 KiB and refuses a byte more with its own limit in the message', () => {
      expect(decodeRequestBody('text/csv', Buffer.alloc(512 * 1024, 0x31), ROSTER_BODY)).toBeInstanceOf(CsvText);
      expect(reasonOf(decodeRequestBody('text/csv', Buffer.alloc(512 * 1024 + 1, 0x31), ROSTER_BODY))).toBe('Request body must not exceed 512 KiB');
    });

    it('is not offered to other routes: text/csv stays refused there', () => {
      expect(reasonOf(decodeRequestBody('text/csv', body('licenceNumber'), undefined))).toBe(VALIDATION_MESSAGES.contentType);
    });
  });
});

describe('decodeRequestBody with a console form', () => {
  const FORM_TYPE = 'application/x-www-form-urlencoded' as const;

  it('decodes the fields into a plain object of strings', () => {
    expect(decodeRequestBody(FORM_TYPE, body('_csrf=abc&licenceNumber=1011001544208079&name=A+%26+B'), FORM_BODY)).toEqual({
      _csrf: 'abc',
      licenceNumber: '1011001544208079',
      name: 'A & B',
    });
  });

  it('keeps the last value of a repeated field', () => {
    expect(decodeRequestBody(FORM_TYPE, body('a=1&a=2'), FORM_BODY)).toEqual({ a: '2' });
  });

  it('refuses JSON on a form route', () => {
    expect(reasonOf(decodeRequestBody(JSON_TYPE, body('{}'), FORM_BODY))).toBe(FEATURE_VALIDATION_MESSAGES.formContentType);
  });

  it('refuses a form on a JSON route', () => {
    expect(reasonOf(decodeRequestBody(FORM_TYPE, body('a=1'), JSON_BODY))).toBe(VALIDATION_MESSAGES.contentType);
  });

  it('refuses a form larger than 16 KiB', () => {
    expect(reasonOf(decodeRequestBody(FORM_TYPE, body('a=1'), FORM_BODY, MAX_REQUEST_BODY_BYTES + 1))).toBe(VALIDATION_MESSAGES.tooLarge);
  });
});
