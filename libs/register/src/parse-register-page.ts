import { load } from 'cheerio';
import { collapseWhiteSpace } from './collapse-white-space';
import { parseRegisterDate } from './register-date';
import { bodyExcerpt, RegisterParseError } from './register-errors';
import type { LookupOutcome, NameSearchOutcome, RegisterLicence } from './register-licence';

const TOO_MANY_RESULTS_TEXT = 'too many search results';
const NO_LICENCES_TEXT = 'unfortunately we found no licences';
const VALUE_SELECTOR = '.ax_h5, .ax_h4, .ax_h4_green, .ax_h4_red';

/** Field labels as compared: lower case, white space collapsed. */
export const LABELS = {
  licenceNumber: 'licence number',
  firstName: 'first name',
  surname: 'surname',
  dateOfBirth: 'date of birth',
  licenceType: 'licence type',
  role: 'role',
  licenceSector: 'licence sector',
  expiryDate: 'expiry date',
  status: 'status',
  additionalConditions: 'additional licence conditions',
} as const;
export const STATUS_REASON_LABEL = /reason|explanation/;

/** Label -> value of one result card. */
type CardFields = ReadonlyMap<string, string>;
type ParseFailure = (message: string) => RegisterParseError;

/** What every register answer page is read into, whichever search asked. */
interface ResultsPage {
  cards: CardFields[];
  tooManyResults: boolean;
  noLicences: boolean;
  fail: ParseFailure;
}

/**
 * Reads a register answer page to a search by number. Throws RegisterParseError for any page that is not one
 * of the known shapes (REGISTER.md "Outcomes"), so a changed site fails loudly instead of answering wrongly.
 */
export function parseRegisterPage(html: string, askedLicenceNumber: string): LookupOutcome {
  const { cards, tooManyResults, noLicences, fail } = readResultsPage(html);
  // A number belongs to one licence: several cards for it are as unusable as the too-many message.
  if (cards.length > 1 || tooManyResults) return { kind: 'too_many_results' };
  if (cards.length === 1) {
    const licence = readLicence(cards[0], fail);
    if (licence.licenceNumber !== askedLicenceNumber) {
      throw fail('Register result card is for a different licence number than the one asked for');
    }
    return { kind: 'found', licence };
  }
  if (noLicences) return { kind: 'not_found' };
  throw fail('Register page has neither a result card nor a known message');
}

/**
 * Reads a register answer page to a search by name: every card is a licence found (one person may hold
 * several), with the same messages and the same RegisterParseError for unknown pages as parseRegisterPage.
 */
export function parseNameSearchPage(html: string): NameSearchOutcome {
  const { cards, tooManyResults, noLicences, fail } = readResultsPage(html);
  if (tooManyResults) return { kind: 'too_many_results' };
  if (cards.length > 0) return { kind: 'found', licences: cards.map((card) => readLicence(card, fail)) };
  if (noLicences) return { kind: 'not_found' };
  throw fail('Register page has neither a result card nor a known message');
}

function readResultsPage(html: string): ResultsPage {
  const fail: ParseFailure = (message) => new RegisterParseError(message, { excerpt: bodyExcerpt(html) });
  const $ = load(html);

  const cards = $('div.well')
    .has('.panel-body')
    .toArray()
    .map((card) => {
      const fields = new Map<string, string>();
      $(card)
        .find('span.ax_paragraph')
        .each((_, labelElement) => {
          const label = collapseWhiteSpace($(labelElement).text()).toLowerCase();
          const valueGroup = $(labelElement).nextAll('div.form-group').first();
          if (valueGroup.length === 0 || fields.has(label)) return;
          const valueElement = valueGroup.find(VALUE_SELECTOR).first();
          fields.set(label, collapseWhiteSpace((valueElement.length > 0 ? valueElement : valueGroup).text()));
        });
      return fields;
    });

  // Scripts may hold message strings for the browser; only rendered elements count. Text lying
  // bare in <body> (a plain-text or JSON answer) is not a register page either.
  $('script, style, noscript, template').remove();
  const pageText = collapseWhiteSpace($('body').children().text()).toLowerCase();

  return {
    cards,
    tooManyResults: pageText.includes(TOO_MANY_RESULTS_TEXT),
    noLicences: pageText.includes(NO_LICENCES_TEXT),
    fail,
  };
}

function readLicence(fields: CardFields, fail: ParseFailure): RegisterLicence {
  const required = (label: string): string => {
    const value = fields.get(label);
    if (!value) throw fail(`Register result card has no "${label}"`);
    return value;
  };
  const optional = (label: string): string | null => fields.get(label) || null;
  const date = (label: string, text: string): string => {
    const isoDate = parseRegisterDate(text);
    if (isoDate === null) throw fail(`Register result card has an unreadable "${label}"`);
    return isoDate;
  };
  const dateOfBirthText = optional(LABELS.dateOfBirth);
  const statusReasonLabel = [...fields.keys()].find((label) => STATUS_REASON_LABEL.test(label));

  return {
    licenceNumber: required(LABELS.licenceNumber),
    firstName: required(LABELS.firstName),
    surname: required(LABELS.surname),
    dateOfBirth: dateOfBirthText === null ? null : date(LABELS.dateOfBirth, dateOfBirthText),
    licenceType: optional(LABELS.licenceType),
    role: required(LABELS.role),
    licenceSector: optional(LABELS.licenceSector),
    expiryDate: date(LABELS.expiryDate, required(LABELS.expiryDate)),
    status: required(LABELS.status),
    statusReason: statusReasonLabel === undefined ? null : optional(statusReasonLabel),
    additionalConditions: optional(LABELS.additionalConditions),
  };
}
