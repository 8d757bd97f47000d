import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KNOWN_PAGE_SHAPES } from './known-page-shapes';
import { pageSample, pageShape } from './page-shape';
import { parseNameSearchPage, parseRegisterPage } from './parse-register-page';
import type { RegisterLicence } from './register-licence';

const FIXTURES = join(__dirname, '..', 'fixtures');
const fixtureNames = readdirSync(FIXTURES).filter((name) => name.endsWith('.html'));
const readFixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
const foundActive = readFixture('found-active.html');

/** found-active.html with a field added to its last row, as the register might one day. */
const withField = (page: string, label: string, value: string): string =>
  page.replace(
    '<span class="ax_paragraph">Status</span>',
    `<span class="ax_paragraph">${label}</span>\n<div class="form-group"><div class="ax_h4">${value}</div></div></div><div class="col-md-3"><span class="ax_paragraph">Status</span>`,
  );

describe('pageShape', () => {
  it('knows the shape of every fixture, and no other', () => {
    expect(fixtureNames.length).toBeGreaterThanOrEqual(7);
    expect(new Set(fixtureNames.map((name) => pageShape(readFixture(name))))).toEqual(KNOWN_PAGE_SHAPES);
  });

  it('is 16 hex digits', () => {
    expect(pageShape(foundActive)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('is the same for another licence and person, white space and attributes aside', () => {
    const other = foundActive
      .replace('JANE', 'MARY-ANNE')
      .replace('DOE', 'SMITH')
      .replace('1011001544208079', '1099000011112222')
      .replace('Front Line', 'Non Front Line')
      .replace('Door Supervision', '')
      .replace('value="CfDJ8Example"', 'value="other-token"')
      .replace(/\n\s+/g, '\n');
    expect(pageShape(other)).toBe(pageShape(foundActive));
  });

  it('keeps its shape with the optional fields the parser reads: a status reason, additional conditions, a date of birth', () => {
    const variant = withField(
      withField(withField(foundActive, 'Reason for suspension', 'Under review'), 'Additional licence conditions', 'None'),
      'Date of birth',
      '01 January 1990',
    );
    expect(parseRegisterPage(variant, '1011001544208079')).toMatchObject({ kind: 'found', licence: { statusReason: 'Under review' } });
    expect(pageShape(variant)).toBe(pageShape(foundActive));
  });

  it('is the same for one card or two of one layout (a name search finding several licences)', () => {
    const card = /<div class="container well panel panel-default">[\s\S]*?\n {4}<\/div>\n/.exec(foundActive)![0];
    expect(pageShape(foundActive.replace(card, card + card))).toBe(pageShape(foundActive));
  });

  it('is new for a new labelled field the parser does not read', () => {
    const page = withField(foundActive, 'Licence category', 'Premium');
    expect(parseRegisterPage(page, '1011001544208079').kind).toBe('found');
    expect(pageShape(page)).not.toBe(pageShape(foundActive));
    expect(KNOWN_PAGE_SHAPES.has(pageShape(page))).toBe(false);
  });

  it('is new for a wrapper with a new class', () => {
    const page = foundActive
      .replace('<div class="panel-body">', '<div class="panel-body"><div class="result-v2">')
      .replace('\n      </div>\n    </div>\n  </div>', '\n      </div></div>\n    </div>\n  </div>');
    expect(parseRegisterPage(page, '1011001544208079').kind).toBe('found');
    expect(KNOWN_PAGE_SHAPES.has(pageShape(page))).toBe(false);
  });

  it('is the same for an Active licence and an Expired one: the status colour is no layout', () => {
    const expired = foundActive.replace('<span class="ax_h4_green">Active</span>', '<span class="ax_h4_red">Expired</span>');
    expect(pageShape(expired)).toBe(pageShape(foundActive));
    expect(pageShape(withField(expired, 'Licence category', 'Premium'))).toBe(pageShape(withField(foundActive, 'Licence category', 'Premium')));
  });

  it('leaves scripts out', () => {
    expect(pageShape(foundActive.replace('</body>', '<script>var x = 1;</script></body>'))).toBe(pageShape(foundActive));
  });
});

describe('pageSample', () => {
  const licencesOf = (name: string): RegisterLicence[] => {
    // maintenance.html is no register answer: it holds nobody.
    if (name === 'maintenance.html') return [];
    const outcome = parseNameSearchPage(readFixture(name));
    return outcome.kind === 'found' ? outcome.licences : [];
  };

  it.each(fixtureNames)('%s: keeps the layout and no name or date of birth', (name) => {
    const page = withField(readFixture(name), 'Date of birth', '14 March 1988');
    const sample = pageSample(page);
    expect(pageShape(sample)).toBe(pageShape(page));
    for (const licence of licencesOf(name)) {
      expect(sample).not.toContain(licence.firstName);
      expect(sample).not.toContain(licence.surname);
      expect(sample).toContain(licence.licenceNumber);
    }
    if (licencesOf(name).length > 0) expect(sample).not.toContain('14 March 1988');
    expect(sample).not.toContain('<script');
  });

  it('shows the lengths in place of the names, and of input values', () => {
    const sample = pageSample(foundActive.replace('value=""', 'value="DOE"'));
    expect(sample).toContain('<div class="ax_h5">[4]</div>');
    expect(sample).toContain('<div class="ax_h5">[3]</div>');
    expect(sample).toContain('value="[3]"');
    expect(sample).toContain('value="[12]"');
    expect(sample).toContain('Front Line');
  });

  it('is cut at 64 KiB', () => {
    expect(pageSample(foundActive.replace('</footer>', `<p>${'x'.repeat(70_000)}</p></footer>`))).toHaveLength(64 * 1024);
  });
});
