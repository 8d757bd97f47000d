import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SANDBOX_LICENCES } from '@lvs/test-register';
import { parseNameSearchPage, parseRegisterPage } from './parse-register-page';
import { RegisterParseError } from './register-errors';
import type { RegisterLicence } from './register-licence';

const readFixture = (name: string): string => readFileSync(join(__dirname, '..', 'fixtures', name), 'utf8');

// The hand-written fixture pages show the sandbox's people (fixtures/README.md).
const JANE_DOE: RegisterLicence = SANDBOX_LICENCES.active;
const JANE_DOE_NUMBER = JANE_DOE.licenceNumber;

type Field = [label: string, valueHtml: string, valueClass?: string];

const JANE_DOE_FIELDS: Field[] = [
  ['First name', 'JANE', 'ax_h5'],
  ['Surname', 'DOE', 'ax_h5'],
  ['Licence number', JANE_DOE_NUMBER],
  ['Role', 'Front Line'],
  ['Licence sector', 'Door Supervision'],
  ['Expiry date', '06 June 2027'],
  ['Status', 'Active', 'ax_h4_green'],
];

function buildCard(fields: Field[]): string {
  const columns = fields.map(
    ([label, valueHtml, valueClass = 'ax_h4']) =>
      `<div class="col-md-3"><span class="ax_paragraph">${label}</span>` +
      `<div class="form-group"><div class="${valueClass}">${valueHtml}</div></div></div>`,
  );
  return `<div class="container well panel panel-default"><div class="panel-body"><div class="row">${columns.join('')}</div></div></div>`;
}

function buildPage(...content: string[]): string {
  return `<!DOCTYPE html><html><head><title>Register of Licence Holders</title></head><body><div class="container body-content">${content.join('')}</div></body></html>`;
}

/** JANE DOE's card with some fields replaced (by label) or removed (value null). */
function janeDoeWith(changes: Record<string, string | null>): string {
  const fields = JANE_DOE_FIELDS.flatMap(([label, value, valueClass]): Field[] => {
    if (!(label in changes)) return [[label, value, valueClass]];
    const changed = changes[label];
    return changed === null ? [] : [[label, changed, valueClass]];
  });
  return buildPage(buildCard(fields));
}

function parseError(html: string, askedLicenceNumber = JANE_DOE_NUMBER): RegisterParseError {
  try {
    parseRegisterPage(html, askedLicenceNumber);
  } catch (error) {
    if (error instanceof RegisterParseError) return error;
    throw error;
  }
  throw new Error('expected a RegisterParseError');
}

describe('parseRegisterPage on the example pages', () => {
  it('found-active.html: found, Active', () => {
    expect(parseRegisterPage(readFixture('found-active.html'), JANE_DOE_NUMBER)).toEqual({
      kind: 'found',
      licence: JANE_DOE,
    });
  });

  it("found-expired.html: found, Expired, O'BRIEN, empty sector", () => {
    expect(parseRegisterPage(readFixture('found-expired.html'), SANDBOX_LICENCES.expired.licenceNumber)).toEqual({
      kind: 'found',
      licence: SANDBOX_LICENCES.expired,
    });
  });

  it('not-found.html: not found', () => {
    expect(parseRegisterPage(readFixture('not-found.html'), JANE_DOE_NUMBER)).toEqual({ kind: 'not_found' });
  });

  it('too-many.html: too many results', () => {
    expect(parseRegisterPage(readFixture('too-many.html'), JANE_DOE_NUMBER)).toEqual({ kind: 'too_many_results' });
  });

  it('two-cards.html: too many results', () => {
    expect(parseRegisterPage(readFixture('two-cards.html'), '1099000011112222')).toEqual({
      kind: 'too_many_results',
    });
  });

  it('maintenance.html: parse error carrying the first 200 characters of the page, white space collapsed', () => {
    const error = parseError(readFixture('maintenance.html'));

    expect(error.message).toBe('Register page has neither a result card nor a known message');
    expect(error.httpStatus).toBeNull();
    expect(error.excerpt).toBe(
      '<!DOCTYPE html> <html><head><title>Service unavailable</title></head> <body><h1>Sorry, the service is unavailable</h1><p>We are carrying out planned maintenance. Please try again later.</p></body></ht',
    );
    expect(error.excerpt).toHaveLength(200);
  });
});

describe('parseRegisterPage on other pages', () => {
  it('decodes entities and collapses white space and line breaks in labels and values', () => {
    const html = buildPage(
      buildCard([
        ['\n  First\n   name ', '\n   ZO&Euml;&nbsp;\n  ANNE  ', 'ax_h5'],
        ['SURNAME', ' O&#39;BRIEN&#x2D;SMITH &amp; SONS ', 'ax_h5'],
        ['Licence number', `\n\t${JANE_DOE_NUMBER}\n`],
        ['Role', 'Front\n\nLine'],
        ['Licence sector', ' Public Space Surveillance (CCTV) '],
        ['Expiry date', '\n 6\n June   2027 \n'],
        ['Status', '\n  Active  \n', 'ax_h4_green'],
      ]),
    );

    expect(parseRegisterPage(html, JANE_DOE_NUMBER)).toEqual({
      kind: 'found',
      licence: {
        ...JANE_DOE,
        firstName: 'ZOË ANNE',
        surname: "O'BRIEN-SMITH & SONS",
        licenceSector: 'Public Space Surveillance (CCTV)',
      },
    });
  });

  it('passes an unknown status word through as written', () => {
    expect(parseRegisterPage(janeDoeWith({ Status: 'Under Review' }), JANE_DOE_NUMBER)).toEqual({
      kind: 'found',
      licence: { ...JANE_DOE, status: 'Under Review' },
    });
  });

  it('gives null for an optional field that is missing altogether', () => {
    expect(parseRegisterPage(janeDoeWith({ 'Licence sector': null }), JANE_DOE_NUMBER)).toEqual({
      kind: 'found',
      licence: { ...JANE_DOE, licenceSector: null },
    });
  });

  it.each(['First name', 'Surname', 'Licence number', 'Role', 'Expiry date', 'Status'])(
    'is a parse error when the required "%s" is missing or empty',
    (label) => {
      const message = `Register result card has no "${label.toLowerCase()}"`;
      expect(parseError(janeDoeWith({ [label]: null })).message).toBe(message);
      expect(parseError(janeDoeWith({ [label]: ' \n ' })).message).toBe(message);
    },
  );

  it('finds fields by label, whatever their order', () => {
    const html = buildPage(buildCard([...JANE_DOE_FIELDS].reverse()));

    expect(parseRegisterPage(html, JANE_DOE_NUMBER)).toEqual({ kind: 'found', licence: JANE_DOE });
  });

  it('reads a status reason, additional conditions, date of birth and licence type when shown', () => {
    const html = buildPage(
      buildCard([
        ...JANE_DOE_FIELDS.filter(([label]) => label !== 'Status'),
        ['Status', 'Suspended', 'ax_h4_red'],
        ['Reason for suspension', 'Pending an investigation'],
        ['Additional licence conditions', 'Not to work after 23:00 &amp; before 06:00'],
        ['Date of birth', '09 March 1990'],
        ['Licence type', 'Door Supervisor'],
      ]),
    );

    expect(parseRegisterPage(html, JANE_DOE_NUMBER)).toEqual({
      kind: 'found',
      licence: {
        ...JANE_DOE,
        status: 'Suspended',
        statusReason: 'Pending an investigation',
        additionalConditions: 'Not to work after 23:00 & before 06:00',
        dateOfBirth: '1990-03-09',
        licenceType: 'Door Supervisor',
      },
    });
  });

  it('takes a status explanation as the reason, and empty reason or conditions as null', () => {
    const explained = buildPage(buildCard([...JANE_DOE_FIELDS, ['Status explanation', 'Renewed early']]));
    const blank = buildPage(buildCard([...JANE_DOE_FIELDS, ['Status reason', ' '], ['Additional licence conditions', '']]));

    expect(parseRegisterPage(explained, JANE_DOE_NUMBER)).toEqual({
      kind: 'found',
      licence: { ...JANE_DOE, statusReason: 'Renewed early' },
    });
    expect(parseRegisterPage(blank, JANE_DOE_NUMBER)).toEqual({ kind: 'found', licence: JANE_DOE });
  });

  it('is a parse error, naming no licence number, when the card is for a different number', () => {
    const asked = '1011001544208080';
    const error = parseError(readFixture('found-active.html'), asked);

    expect(error.message).toBe('Register result card is for a different licence number than the one asked for');
    expect(error.message).not.toContain(asked);
    expect(error.message).not.toContain(JANE_DOE_NUMBER);
  });

  it.each(['31 February 2027', '2027-06-06', '06/06/2027', 'June 2027'])('is a parse error when the expiry date reads %j', (expiryDate) => {
    expect(parseError(janeDoeWith({ 'Expiry date': expiryDate })).message).toBe('Register result card has an unreadable "expiry date"');
  });

  it('reports too many results when the message shows beside a single card', () => {
    const html = buildPage('<div class="alert">Too many search results were returned.</div>', buildCard(JANE_DOE_FIELDS));

    expect(parseRegisterPage(html, JANE_DOE_NUMBER)).toEqual({ kind: 'too_many_results' });
  });

  it('ignores message strings inside scripts', () => {
    const html = buildPage(
      buildCard(JANE_DOE_FIELDS),
      '<script>var messages = ["Too many search results", "Unfortunately we found no licences"];</script>',
    );

    expect(parseRegisterPage(html, JANE_DOE_NUMBER)).toEqual({ kind: 'found', licence: JANE_DOE });
  });

  it('does not take a well without a panel body for a result card', () => {
    const html = buildPage(
      '<div class="well"><span class="ax_paragraph">Licence number</span><div class="form-group"><input /></div></div>',
      '<p>Unfortunately we found no licences based on the data you entered.</p>',
    );

    expect(parseRegisterPage(html, JANE_DOE_NUMBER)).toEqual({ kind: 'not_found' });
  });

  it.each([
    ['an empty body', ''],
    ['a blank body', ' \n '],
    ['JSON', '{"licenceNumber":"1011001544208079","status":"Active"}'],
    ['plain text, even with the not-found words', 'Unfortunately we found no licences'],
    ['an HTML page of another shape', buildPage('<h1>Please verify you are a human</h1>')],
  ])('is a parse error for %s', (_, body) => {
    expect(parseError(body).message).toBe('Register page has neither a result card nor a known message');
  });
});

describe('parseNameSearchPage', () => {
  it('name-two-licences.html: found, both licences of one holder, in page order', () => {
    expect(parseNameSearchPage(readFixture('name-two-licences.html'))).toEqual({
      kind: 'found',
      licences: [SANDBOX_LICENCES.renewedOld, SANDBOX_LICENCES.renewedNew],
    });
  });

  it('two-cards.html: found, two licences of different people', () => {
    const outcome = parseNameSearchPage(readFixture('two-cards.html'));
    expect(outcome.kind === 'found' && outcome.licences.map(({ firstName, surname, status }) => [firstName, surname, status])).toEqual([
      ['JOHN', 'SMITH', 'Active'],
      ['JON', 'SMYTH', 'Suspended'],
    ]);
  });

  it('found-active.html: found, one licence', () => {
    expect(parseNameSearchPage(readFixture('found-active.html'))).toEqual({ kind: 'found', licences: [JANE_DOE] });
  });

  it('not-found.html: not found', () => {
    expect(parseNameSearchPage(readFixture('not-found.html'))).toEqual({ kind: 'not_found' });
  });

  it('too-many.html: too many results', () => {
    expect(parseNameSearchPage(readFixture('too-many.html'))).toEqual({ kind: 'too_many_results' });
  });

  it('reports too many results when the message shows beside cards', () => {
    const page = buildPage(buildCard(JANE_DOE_FIELDS), '<p>Too many search results. Please refine your search.</p>');
    expect(parseNameSearchPage(page)).toEqual({ kind: 'too_many_results' });
  });

  it('maintenance.html: parse error', () => {
    expect(() => parseNameSearchPage(readFixture('maintenance.html'))).toThrow(
      new RegisterParseError('Register page has neither a result card nor a known message'),
    );
  });

  it('is a parse error when any card lacks a required field, even beside a complete one', () => {
    const incomplete = JANE_DOE_FIELDS.filter(([label]) => label !== 'Status');
    expect(() => parseNameSearchPage(buildPage(buildCard(JANE_DOE_FIELDS), buildCard(incomplete)))).toThrow(
      new RegisterParseError('Register result card has no "status"'),
    );
  });
});
