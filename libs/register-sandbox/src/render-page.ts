import type { SandboxLicence } from '@lvs/test-register';

// Pages in the shape of the register's (see libs/register/fixtures): the parts the client reads,
// inside enough surrounding markup (head, navigation, form, scripts) to keep the client honest.

const PAGE_START = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>Register of Licence Holders - Security Industry Authority</title>
  <link href="/PublicRegister/Content/bootstrap.css" rel="stylesheet" />
  <script src="/PublicRegister/Scripts/jquery.js"></script>
</head>
<body>
  <header class="navbar navbar-default"><div class="container"><a class="navbar-brand" href="/PublicRegister/">Register of Licence Holders</a></div></header>
  <div class="container body-content">
    <form action="/PublicRegister/SearchPublicRegisterByLicence" method="post">
      <input name="__RequestVerificationToken" type="hidden" value="CfDJ8Sandbox" />
      <label for="LicenseNo">Licence number</label>
      <input class="form-control" id="LicenseNo" name="LicenseNo" type="text" value="" />
      <button class="btn btn_search" type="submit">Search</button>
    </form>
    <div class="ax_horizontal_line"></div>
`;
const PAGE_END = `  </div>
  <footer class="container"><p>&copy; Security Industry Authority</p></footer>
  <script>$(function () { $('.btn_search').attr('disabled', false); });</script>
</body>
</html>
`;
const NOT_FOUND_MESSAGE = `    <div class="panel panel-default"><div class="panel-body">
      <p class="ax_paragraph">Unfortunately we found no licences based on the data you entered. Please check the details and try again.</p>
    </div></div>
`;
const OVERSIZE_PAGE_MIN_BYTES = 3 * 1024 * 1024 + 64 * 1024;
const OVERSIZE_PADDING_CHUNK = `    <!-- ${'padding '.repeat(8 * 1024)}-->\n`;

const EXPIRY_DATE_FORMAT = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

export function renderSearchPage(): string {
  return PAGE_START + PAGE_END;
}

export function renderNotFoundPage(): string {
  return PAGE_START + NOT_FOUND_MESSAGE + PAGE_END;
}

export function renderTooManyResultsPage(): string {
  return `${PAGE_START}    <div class="alert alert-warning">Too many search results were returned. Please refine your search.</div>\n${PAGE_END}`;
}

/**
 * A change of the result cards' layout the register might make one day (PUT /__sandbox/page-variant): an extra
 * labelled field in a row of its own, and/or a wrapper of the given class around the card's rows.
 */
export interface PageVariant {
  field?: { label: string; value: string };
  wrapperClass?: string;
}

/** One result card per licence, in the variant's layout when one is set. */
export function renderResultsPage(licences: readonly SandboxLicence[], variant: PageVariant = {}): string {
  return PAGE_START + licences.map((licence) => renderCard(licence, variant)).join('') + PAGE_END;
}

/** A results page whose transfer completes but whose HTML stops half-way through the card. */
export function renderTruncatedResultsPage(licence: SandboxLicence): string {
  const card = renderCard(licence);
  return PAGE_START + card.slice(0, Math.floor(card.length / 2));
}

/** A 200 page served by a proxy or the site during maintenance: not a register answer. */
export function renderMaintenancePage(): string {
  return `<!DOCTYPE html>
<html><head><title>Service unavailable</title></head>
<body><h1>Sorry, the service is unavailable</h1><p>We are carrying out planned maintenance. Please try again later.</p></body></html>
`;
}

export function renderErrorPage(title: string): string {
  return `<!DOCTYPE html>\n<html><head><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1></body></html>\n`;
}

/** A not-found page padded past 3 MiB, yielded in pieces so the sandbox never holds it whole. */
export function* renderOversizePage(): Generator<string> {
  yield PAGE_START;
  for (let written = 0; written < OVERSIZE_PAGE_MIN_BYTES; written += OVERSIZE_PADDING_CHUNK.length) {
    yield OVERSIZE_PADDING_CHUNK;
  }
  yield NOT_FOUND_MESSAGE + PAGE_END;
}

function renderCard(licence: SandboxLicence, variant: PageVariant = {}): string {
  const statusClass = licence.status === 'Active' ? 'ax_h4_green' : 'ax_h4_red';
  const rows = [
    [renderField('First name', 'div', 'ax_h5', licence.firstName), renderField('Surname', 'div', 'ax_h5', licence.surname)],
    [
      renderField('Licence number', 'div', 'ax_h4', licence.licenceNumber),
      renderField('Role', 'div', 'ax_h4', licence.role),
      renderField('Licence sector', 'div', 'ax_h4', licence.licenceSector ?? ''),
    ],
    [
      renderField('Expiry date', 'div', 'ax_h4', EXPIRY_DATE_FORMAT.format(new Date(licence.expiryDate))),
      renderField('Status', 'span', statusClass, licence.status),
    ],
    [
      licence.statusReason === null ? '' : renderField('Status reason', 'div', 'ax_h4', licence.statusReason),
      licence.additionalConditions === null ? '' : renderField('Additional licence conditions', 'div', 'ax_h4', licence.additionalConditions),
    ],
    [variant.field === undefined ? '' : renderField(escapeHtml(variant.field.label), 'div', 'ax_h4', variant.field.value)],
  ];
  const rowsHtml = rows
    .map((fields) => fields.join(''))
    .filter((fieldsHtml) => fieldsHtml !== '')
    .map((fieldsHtml) => `        <div class="row">\n${fieldsHtml}        </div>\n`)
    .join('');
  const wrapped = variant.wrapperClass === undefined ? rowsHtml : `<div class="${escapeHtml(variant.wrapperClass)}">\n${rowsHtml}</div>\n`;
  return `    <div class="container well panel panel-default">
      <div class="panel-body">
${wrapped}      </div>
    </div>
`;
}

function renderField(label: string, valueTag: 'div' | 'span', valueClass: string, value: string): string {
  return `          <div class="col-md-3">
            <span class="ax_paragraph">${label}</span>
            <div class="form-group"><${valueTag} class="${valueClass}">
              ${escapeHtml(value)}
            </${valueTag}></div>
          </div>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
