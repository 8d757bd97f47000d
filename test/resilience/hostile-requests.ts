import fc from 'fast-check';

/** Bytes to send over one fresh TCP connection, and whether they are one complete HTTP request. */
export interface HostileRequest {
  /** what the generator meant, for the statistics and for failure reports */
  kind: string;
  bytes: Buffer;
  /**
   * False for garbage that may stop mid-request: the client half-closes after writing, and no
   * answer at all is acceptable (the parser may not have seen a request).
   */
  complete: boolean;
}

export interface Keys {
  /** unlimited plan: bodies reach validation and lookups */
  unlimited: string;
  /** a small quota, so 429 is reached too */
  small: string;
}

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__defineGetter__'];

// Sandbox numbers whose lookups are quick: FOUND, too many, not found, register 503 (retried), maintenance page (502).
const KNOWN_NUMBERS = ['1011001544208079', '1023004455667788', '1999000000000000', '1888000000000000', '9000000000000503', '9000000000000012'];

/** Any code point, lone surrogates included. */
const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff }).map((codePoint) => String.fromCodePoint(codePoint));
const oddText = fc.oneof(
  fc.string({ unit: anyCodePoint, maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '\u0000',
    '\uD800',
    '\uDFFF',
    '\uFEFF',
    '\u202E1011001544208079',
    '１０１１００１５４４２０８０７９',
    '١٠١١٠٠١٥٤٤٢٠٨٠٧٩',
    '1011001544208079\u200B',
  ),
);

const licenceNumber = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...KNOWN_NUMBERS) },
  // Unknown numbers: each one a real lookup in the sandbox (NOT_FOUND).
  { weight: 1, arbitrary: fc.stringMatching(/^1888[0-9]{12}$/) },
);

const wrongLicenceNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.constantFrom(...KNOWN_NUMBERS), { maxLength: 3 }),
  fc.object({ maxDepth: 2 }),
  fc.stringMatching(/^[0-9]{0,15}$/),
  fc.stringMatching(/^[0-9]{17,40}$/),
  oddText,
);

const deeplyNested = fc.record({ depth: fc.integer({ min: 2, max: 6000 }), open: fc.constantFrom('[', '{"a":') }).map(({ depth, open }) => {
  const close = open === '[' ? ']' : '}';
  return `{"licenceNumber":"1011001544208079","x":${open.repeat(depth)}${open === '[' ? '' : '1'}${close.repeat(depth)}}`;
});

/** Body texts, from valid through subtly wrong to hostile. */
const jsonBody: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: licenceNumber.map((number) => JSON.stringify({ licenceNumber: number })) },
  { weight: 3, arbitrary: wrongLicenceNumber.map((value) => JSON.stringify({ licenceNumber: value })) },
  { weight: 3, arbitrary: fc.json({ maxDepth: 4 }) },
  { weight: 2, arbitrary: deeplyNested },
  {
    weight: 2,
    arbitrary: fc
      .record({ number: licenceNumber, name: fc.constantFrom(...PROTOTYPE_NAMES), value: fc.json({ maxDepth: 2 }) })
      .map(({ number, name, value }) => `{"licenceNumber":"${number}","${name}":${value}}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ number: licenceNumber, extra: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 3 }) })
      .map(({ number, extra }) => JSON.stringify({ licenceNumber: number, ...extra })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(licenceNumber, fc.oneof(licenceNumber, oddText))
      .map(([first, second]) => `{"licenceNumber":"${first}","licenceNumber":${JSON.stringify(second)}}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ size: fc.integer({ min: 1000, max: 40_000 }), char: fc.constantFrom('x', 'é', '\u{1F600}', '\\u0000') })
      .map(({ size, char }) => `{"licenceNumber":"${char.repeat(size)}"}`),
  },
  { weight: 1, arbitrary: oddText.map((text) => `{"licenceNumber":${JSON.stringify(text)}}`) },
  { weight: 1, arbitrary: oddText },
);

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=latin1',
      ';;;',
      '',
      'application/json, text/plain',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 30 }) },
);

function keyHeaders(keys: Keys): fc.Arbitrary<readonly string[]> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant([`X-API-Key: ${keys.unlimited}`]) },
    { weight: 1, arbitrary: fc.constant([`X-API-Key: ${keys.small}`]) },
    { weight: 1, arbitrary: fc.constant([`Authorization: Bearer ${keys.unlimited}`]) },
    { weight: 1, arbitrary: fc.constant([]) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.stringMatching(/^lvs_[A-Za-z0-9_-]{0,60}$/),
          fc.string({ unit: 'binary-ascii', maxLength: 80 }),
          fc.constant(`${keys.unlimited}x`),
          fc.constant(keys.unlimited.slice(0, -1)),
        )
        .chain((key) => fc.constantFrom([`X-API-Key: ${key}`], [`Authorization: Bearer ${key}`], [`Authorization: Basic ${key}`])),
    },
    { weight: 1, arbitrary: fc.constant([`X-API-Key: ${keys.unlimited}`, 'X-API-Key: lvs_other']) },
  );
}

const idempotencyHeaders = fc.oneof(
  { weight: 6, arbitrary: fc.constant([] as string[]) },
  { weight: 2, arbitrary: fc.stringMatching(/^[!-~]{1,255}$/).map((key) => [`Idempotency-Key: ${key}`]) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        fc.constant(''),
        fc.constant('k'.repeat(256)),
        fc.string({ unit: 'binary-ascii', maxLength: 40 }),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
      )
      .map((key) => [`Idempotency-Key: ${key}`]),
  },
  { weight: 1, arbitrary: fc.constant(['Idempotency-Key: a', 'Idempotency-Key: b']) },
);

/** Odd extra headers: control characters, bad names, huge values, duplicates. */
const extraHeaders = fc.oneof(
  { weight: 8, arbitrary: fc.constant([] as string[]) },
  {
    weight: 2,
    arbitrary: fc.array(
      fc.oneof(
        fc.tuple(fc.stringMatching(/^[A-Za-z-]{1,20}$/), fc.string({ unit: 'binary', maxLength: 60 })).map(([name, value]) => `${name}: ${value}`),
        fc.constantFrom('Bad Header: 1', 'X-Null: a\u0000b', 'X-Bell: \u0007', ': empty-name', 'X-Folded: a\r\n b', 'Host: second.example'),
        fc.integer({ min: 1000, max: 20_000 }).map((size) => `X-Big: ${'a'.repeat(size)}`),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  },
);

const otherRoute = fc.record({
  method: fc.oneof(
    fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'get', 'Post'),
    fc.stringMatching(/^[A-Z]{3,10}$/).filter((method) => method !== 'CONNECT' && method !== 'HEAD'),
  ),
  path: fc.oneof(
    fc.webPath().map((path) => `/v1${path}`),
    fc.string({ unit: 'binary', maxLength: 30 }).map((text) => `/v1/${text}`),
    fc.constantFrom('/v1/%zz', '/v1/%E0%A4%A', '/%c0%ae%c0%ae/', '/v1/licences/verify?x=%00', '/v1/quota/usage/..%2f..%2f', '*', 'http://evil.example/'),
  ),
});

function request(lines: string[], body: Buffer): Buffer {
  const head = [...lines, `Content-Length: ${body.length}`, 'Connection: close'].join('\r\n');
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'utf8'), body]);
}

/** Requests whose framing is right: every answer must come, inside the contract. */
function wellFramed(keys: Keys): fc.Arbitrary<HostileRequest> {
  const verify = fc
    .record({
      body: fc.oneof(
        { weight: 9, arbitrary: jsonBody.map((text) => Buffer.from(text, 'utf8')) },
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)) },
      ),
      type: fc.option(contentType, { nil: undefined, freq: 10 }),
      key: keyHeaders(keys),
      idempotency: idempotencyHeaders,
      extra: extraHeaders,
    })
    .map(({ body, type, key, idempotency, extra }): HostileRequest => ({
      kind: extra.length > 0 ? 'verify, odd headers' : 'verify',
      complete: true,
      bytes: request(
        [
          'POST /v1/licences/verify HTTP/1.1',
          'Host: api.test',
          ...key,
          ...idempotency,
          ...(type === undefined ? [] : [`Content-Type: ${type}`]),
          ...extra,
        ],
        body,
      ),
    }));
  const quota = fc.record({ key: keyHeaders(keys), extra: extraHeaders }).map(({ key, extra }): HostileRequest => ({
    kind: 'quota',
    complete: true,
    bytes: request(['GET /v1/quota/usage HTTP/1.1', 'Host: api.test', ...key, ...extra], Buffer.alloc(0)),
  }));
  const other = fc.record({ target: otherRoute, key: keyHeaders(keys), body: jsonBody }).map(({ target, key, body }): HostileRequest => ({
    kind: 'other route or method',
    complete: true,
    bytes: request([`${target.method} ${target.path} HTTP/1.1`, 'Host: api.test', ...key, 'Content-Type: application/json'], Buffer.from(body, 'utf8')),
  }));
  return fc.oneof({ weight: 14, arbitrary: verify }, { weight: 2, arbitrary: quota }, { weight: 2, arbitrary: other });
}

/** Broken HTTP: bad request lines, versions, framing, raw bytes. The client half-closes after them. */
const brokenHttp: fc.Arbitrary<HostileRequest> = fc
  .oneof(
    fc.uint8Array({ minLength: 1, maxLength: 600 }).map((bytes) => Buffer.from(bytes)),
    fc.uint8Array({ minLength: 1, maxLength: 200 }).map((bytes) => Buffer.concat([Buffer.from(bytes), Buffer.from('\r\n\r\n')])),
    fc
      .record({
        method: fc.oneof(fc.constantFrom('GET', 'POST', 'get', 'G ET', ''), fc.string({ unit: 'binary-ascii', maxLength: 8 })),
        target: fc.oneof(fc.constantFrom('/v1/quota/usage', '/v1/licences/verify', '', '/ /'), fc.string({ unit: 'binary', maxLength: 40 })),
        version: fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 extra', 'http/1.1', '', 'HTTP/1.'),
        headers: fc.array(fc.string({ unit: 'binary-ascii', maxLength: 40 }), { maxLength: 4 }),
      })
      .map(({ method, target, version, headers }) => Buffer.from(`${method} ${target} ${version}\r\n${headers.join('\r\n')}\r\n\r\n`, 'utf8')),
    fc
      .constantFrom(
        'POST /v1/licences/verify HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        'POST /v1/licences/verify HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
        'POST /v1/licences/verify HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
        'POST /v1/licences/verify HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nContent-Length: 11\r\n\r\n',
        'POST /v1/licences/verify HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"licenceNumber":',
        'GET /v1/quota/usage HTTP/1.1\r\nHost: x\r\n',
        'GET /v1/quota/usage HTTP/1.1\nHost: x\n\n',
        '\r\n\r\n\r\n',
        'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
      )
      .map((text) => Buffer.from(text, 'latin1')),
  )
  .map((bytes): HostileRequest => ({ kind: 'broken HTTP', complete: false, bytes }));

export function hostileRequests(keys: Keys): fc.Arbitrary<HostileRequest> {
  return fc.oneof({ weight: 4, arbitrary: wellFramed(keys) }, { weight: 1, arbitrary: brokenHttp });
}
