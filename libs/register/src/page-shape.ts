import { load } from 'cheerio';
import { createHash } from 'node:crypto';
import { collapseWhiteSpace } from './collapse-white-space';
import { LABELS, STATUS_REASON_LABEL } from './parse-register-page';

/** Field labels the parser reads when present: a page with or without them keeps its shape. */
const OPTIONAL_LABELS: ReadonlySet<string> = new Set([LABELS.dateOfBirth, LABELS.licenceType, LABELS.licenceSector, LABELS.additionalConditions]);
/** A value's colour class (ax_h4_green, ax_h4_red) follows the licence's status, not the layout: its colours are one step. */
const COLOUR_CLASS = /^(ax_h\d)_[a-z]+$/;
/** Labels whose value is a person's: a sample shows their lengths only. */
const PERSONAL_LABEL = /name|birth/;
/** A sample longer than this is cut: it shows the layout, which the start of the page holds. */
const SAMPLE_MAX_CHARS = 64 * 1024;

/**
 * The shape of a register page: a digest of its layout with the text stripped. It covers every element path under
 * <body> (tag and classes, as a set: two cards or one, four rows or three, are one shape; a status's colour is no
 * layout) and the labels of the
 * fields and table headers, leaving out those the parser reads only when present (a status reason, additional
 * conditions, a date of birth...), so pages of different licences and people share a shape, and only a change of
 * layout (a new labelled field, a wrapper with a new class) makes a new one.
 */
export function pageShape(html: string): string {
  const $ = load(html);
  $('script, style, noscript, template').remove();
  const paths = new Set<string>();
  const walk = (parent: ReturnType<typeof $>, path: string): void => {
    for (const child of parent.children().toArray()) {
      const classes = ($(child).attr('class') ?? '')
        .split(/\s+/)
        .filter(Boolean)
        .map((name) => name.replace(COLOUR_CLASS, '$1_*'))
        .sort();
      const childPath = `${path}>${[child.tagName, ...classes].join('.')}`;
      paths.add(childPath);
      walk($(child), childPath);
    }
  };
  walk($('body'), 'body');
  const labels = new Set(
    $('span.ax_paragraph, th')
      .toArray()
      .map((element) => collapseWhiteSpace($(element).text()).toLowerCase())
      .filter((label) => !OPTIONAL_LABELS.has(label) && !STATUS_REASON_LABEL.test(label)),
  );
  const layout = `${[...paths].sort().join('\n')}\n\n${[...labels].sort().join('\n')}`;
  return createHash('sha256').update(layout).digest('hex').slice(0, 16);
}

/**
 * A register page as an operator may keep it: the values of the fields labelled as names or a date of birth, every
 * other place those values appear, and every input's value (a name search echoes the name asked) are replaced by
 * their lengths, e.g. "[4]"; scripts are dropped, and the page is cut at 64 KiB.
 */
export function pageSample(html: string): string {
  const $ = load(html);
  $('script, style, noscript, template').remove();
  const personal = new Set<string>();
  $('span.ax_paragraph').each((_, labelElement) => {
    if (!PERSONAL_LABEL.test(collapseWhiteSpace($(labelElement).text()).toLowerCase())) return;
    const value = collapseWhiteSpace($(labelElement).nextAll('div.form-group').first().text());
    if (value !== '') personal.add(value);
  });
  $('input[value]').each((_, input) => {
    const value = $(input).attr('value') ?? '';
    $(input).attr('value', `[${value.length}]`);
    if (value.trim() !== '') personal.add(value.trim());
  });
  // Longest first: a surname inside a longer name is replaced as part of the longer one.
  const values = [...personal].sort((a, b) => b.length - a.length);
  $('*')
    .contents()
    .each((_, node) => {
      if (!('data' in node)) return;
      for (const value of values) node.data = node.data.split(value).join(`[${value.length}]`);
    });
  return $.html().slice(0, SAMPLE_MAX_CHARS);
}
