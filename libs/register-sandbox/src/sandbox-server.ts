import { setMaxListeners } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { FaultBook, FaultSettingError, parseFaultSetting, pickLatencyMs } from './faults';
import type { FaultName } from '@lvs/test-register';
import {
  renderErrorPage,
  renderMaintenancePage,
  renderNotFoundPage,
  renderOversizePage,
  renderResultsPage,
  renderSearchPage,
  renderTooManyResultsPage,
  renderTruncatedResultsPage,
} from './render-page';
import type { PageVariant } from './render-page';
import { applyLicenceChange, LicenceChangeError, parseLicenceChange } from './licence-changes';
import { loadSandboxData, parseSandboxLicence, searchKey } from '@lvs/test-register';
import type { SandboxData, SandboxLicence } from '@lvs/test-register';
import { searchSandboxByName } from '@lvs/test-register';

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default: the data set shipped in libs/test-register/data/licences.json. */
  dataFile?: string;
  /** Numbers starting with this prefix are answered (from the data, usually not found) after latencyMs. */
  slowNumbers?: { prefix: string; latencyMs: number };
}

export interface RunningSandbox {
  /** e.g. http://127.0.0.1:4010 */
  url: string;
  port: number;
  /** Stops listening and drops every connection, hanging or idle. */
  close(): Promise<void>;
}

export interface RequestCounts {
  /** Searches of both kinds. */
  total: number;
  /** Searches by number, per number. */
  byLicence: Record<string, number>;
  /** Searches by name, per surname as compared (upper case, white space collapsed). */
  bySurname: Record<string, number>;
}

/** When each search request arrived (epoch milliseconds), per licence number, in order. */
export interface RequestTimes {
  byLicence: Record<string, number[]>;
}

const SEARCH_PATH = '/PublicRegister/SearchPublicRegisterByLicence';
const NAME_SEARCH_PATH = '/PublicRegister/SearchPublicRegisterBySurname';
const REDIRECT_LOCATION = '/PublicRegister/Error';
const MAX_REQUEST_BODY_BYTES = 64 * 1024;
const LICENCE_NUMBER = /^\d{16}$/;
const LICENCES_PATH = '/__sandbox/licences/';

/** A request the sandbox refuses with a 4xx: a body too large, or admin input that is not JSON. */
class ClientInputError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

type RouteHandler = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const loaded = await loadSandboxData(options.dataFile);
  // A copy the admin API may change at run time (PUT /__sandbox/licences/{number}).
  const licencesByNumber = new Map(loaded.licencesByNumber);
  const data: SandboxData = { ...loaded, licencesByNumber };
  const host = options.host ?? '127.0.0.1';
  const faults = new FaultBook();
  // The result cards' layout for a test of page shapes (PUT /__sandbox/page-variant); {} is the register's own.
  let pageVariant: PageVariant = {};
  const requestsByLicence = new Map<string, number>();
  const arrivalsByLicence = new Map<string, number[]>();
  const requestsBySurname = new Map<string, number>();
  let requestTotal = 0;
  const requestCounts = (): RequestCounts => ({
    total: requestTotal,
    byLicence: Object.fromEntries(requestsByLicence),
    bySurname: Object.fromEntries(requestsBySurname),
  });
  // Aborted by close(), so that latency delays do not keep the process alive.
  const closing = new AbortController();
  // Every delayed request listens on it; hundreds at once are expected in load tests, not a leak.
  setMaxListeners(0, closing.signal);

  const answerSearch: RouteHandler = async (request, response) => {
    const form = new URLSearchParams(await readRequestBody(request));
    const licenceNumber = (form.get('LicenseNo') ?? '').trim();
    requestTotal += 1;
    if (licenceNumber !== '') {
      requestsByLicence.set(licenceNumber, (requestsByLicence.get(licenceNumber) ?? 0) + 1);
      const arrivals = arrivalsByLicence.get(licenceNumber) ?? [];
      arrivals.push(Date.now());
      arrivalsByLicence.set(licenceNumber, arrivals);
    }

    const reservedFault = data.reservedFaults.get(licenceNumber);
    const slow = options.slowNumbers;
    const rule =
      faults.take(licenceNumber) ??
      (reservedFault === undefined ? null : { fault: reservedFault }) ??
      (slow && licenceNumber.startsWith(slow.prefix) ? { fault: 'none' as const, latencyMs: slow.latencyMs } : null);
    const latencyMs = rule === null ? 0 : pickLatencyMs(rule);
    if (latencyMs > 0) await sleep(latencyMs, undefined, { signal: closing.signal });
    const truncatedCard = data.licencesByNumber.get(licenceNumber)?.[0] ?? placeholderLicence(licenceNumber);
    await misbehave(rule?.fault ?? 'none', () => renderSearchResult(licenceNumber, data, pageVariant), truncatedCard, request, response);
  };

  // Only a run-time fault set for every number reaches a name search: numbers' faults are theirs alone.
  const answerNameSearch: RouteHandler = async (request, response) => {
    const form = new URLSearchParams(await readRequestBody(request));
    const surname = searchKey(form.get('Surname') ?? '');
    requestTotal += 1;
    requestsBySurname.set(surname, (requestsBySurname.get(surname) ?? 0) + 1);

    const rule = faults.take('');
    const latencyMs = rule === null ? 0 : pickLatencyMs(rule);
    if (latencyMs > 0) await sleep(latencyMs, undefined, { signal: closing.signal });
    const answer = () => {
      const found = searchSandboxByName(form, [...licencesByNumber.values()].flat(), data.tooManySurnames);
      if (found.kind === 'too_many_results') return renderTooManyResultsPage();
      return found.licences.length === 0 ? renderNotFoundPage() : renderResultsPage(found.licences, pageVariant);
    };
    await misbehave(rule?.fault ?? 'none', answer, placeholderLicence(''), request, response);
  };
  const answerSearchPage: RouteHandler = (_, response) => sendHtml(response, 200, renderSearchPage());

  const routes = new Map<string, RouteHandler>([
    [`POST ${SEARCH_PATH}`, answerSearch],
    [`POST ${NAME_SEARCH_PATH}`, answerNameSearch],
    ['GET /PublicRegister/', answerSearchPage],
    ['GET /PublicRegister', answerSearchPage],
    ['GET /__sandbox/requests', (_, response) => sendJson(response, 200, requestCounts())],
    [
      'GET /__sandbox/requests/times',
      (_, response) => sendJson(response, 200, { byLicence: Object.fromEntries(arrivalsByLicence) } satisfies RequestTimes),
    ],
    [
      'DELETE /__sandbox/requests',
      (_, response) => {
        requestTotal = 0;
        requestsByLicence.clear();
        arrivalsByLicence.clear();
        requestsBySurname.clear();
        sendJson(response, 200, requestCounts());
      },
    ],
    ['GET /__sandbox/fault', (_, response) => sendJson(response, 200, faults.view())],
    [
      // A new person, or another licence of one already there (same names and date of birth), at run time.
      'POST /__sandbox/licences',
      async (request, response) => {
        const licence = parseAddedLicence(parseJson(await readRequestBody(request)));
        const { licenceNumber } = licence;
        if (licencesByNumber.has(licenceNumber) || data.tooManyResults.has(licenceNumber) || data.reservedFaults.has(licenceNumber)) {
          return sendJson(response, 409, { error: `licence number ${licenceNumber} is already in use` });
        }
        licencesByNumber.set(licenceNumber, [licence]);
        sendJson(response, 201, { licenceNumber, cards: [licence] });
      },
    ],
    [
      'PUT /__sandbox/fault',
      async (request, response) => {
        faults.set(parseFaultSetting(parseJson(await readRequestBody(request))));
        sendJson(response, 200, faults.view());
      },
    ],
    ['GET /__sandbox/page-variant', (_, response) => sendJson(response, 200, pageVariant)],
    [
      'PUT /__sandbox/page-variant',
      async (request, response) => {
        pageVariant = parsePageVariant(parseJson(await readRequestBody(request)));
        sendJson(response, 200, pageVariant);
      },
    ],
    [
      'DELETE /__sandbox/page-variant',
      (_, response) => {
        pageVariant = {};
        sendJson(response, 200, pageVariant);
      },
    ],
    [
      'DELETE /__sandbox/fault',
      (_, response) => {
        faults.clear();
        sendJson(response, 200, faults.view());
      },
    ],
  ]);

  const changeLicence: RouteHandler = async (request, response) => {
    const licenceNumber = new URL(request.url ?? '/', 'http://sandbox').pathname.slice(LICENCES_PATH.length);
    const change = parseLicenceChange(parseJson(await readRequestBody(request)));
    const cards = applyLicenceChange(licencesByNumber.get(licenceNumber), change);
    if (cards === null) return sendJson(response, 404, { error: `no licence ${licenceNumber} to change` });
    if (cards.length === 0) licencesByNumber.delete(licenceNumber);
    else licencesByNumber.set(licenceNumber, cards);
    sendJson(response, 200, { licenceNumber, cards });
  };

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://sandbox').pathname;
    const route = `${request.method} ${path}`;
    const isLicenceChange = request.method === 'PUT' && path.startsWith(LICENCES_PATH) && LICENCE_NUMBER.test(path.slice(LICENCES_PATH.length));
    const answer =
      (isLicenceChange ? changeLicence : undefined) ??
      routes.get(route) ??
      (path.startsWith('/__sandbox/')
        ? () => sendJson(response, 404, { error: `no admin route ${route}` })
        : () => sendHtml(response, 404, renderErrorPage('Not found')));
    Promise.resolve()
      .then(() => answer(request, response))
      .catch((error: unknown) => {
        if (closing.signal.aborted || response.headersSent || response.destroyed) {
          response.destroy();
          return;
        }
        if (error instanceof FaultSettingError || error instanceof LicenceChangeError) sendJson(response, 400, { error: error.message });
        else if (error instanceof ClientInputError) sendJson(response, error.statusCode, { error: error.message });
        else sendJson(response, 500, { error: error instanceof Error ? error.message : String(error) });
      });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  let closed: Promise<void> | null = null;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () => {
      closed ??= new Promise<void>((resolve, reject) => {
        closing.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        // Hanging requests and idle keep-alive sockets would otherwise hold close() open.
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

/**
 * Answers a search as the fault says: with the page `answer` renders when there is none, and a page cut
 * inside `truncatedCard` for 'truncated'.
 */
async function misbehave(
  fault: FaultName,
  answer: () => string,
  truncatedCard: SandboxLicence,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  switch (fault) {
    case 'none':
      return sendHtml(response, 200, answer());
    case 'status-500':
      return sendHtml(response, 500, renderErrorPage('Internal server error'));
    case 'status-503':
      return sendHtml(response, 503, renderErrorPage('Service unavailable'));
    case 'status-429':
      return sendHtml(response, 429, renderErrorPage('Too many requests'));
    case 'status-404':
      return sendHtml(response, 404, renderErrorPage('Not found'));
    case 'hang':
      return; // never answered: the client gives up, or close() drops the socket
    case 'reset':
      request.socket.resetAndDestroy();
      return;
    case 'maintenance':
      return sendHtml(response, 200, renderMaintenancePage());
    case 'truncated':
      return sendHtml(response, 200, renderTruncatedResultsPage(truncatedCard));
    case 'oversize':
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return pipeline(Readable.from(renderOversizePage()), response);
    case 'redirect':
      response.setHeader('location', REDIRECT_LOCATION);
      return sendHtml(response, 302, renderErrorPage('Object moved'));
  }
}

function renderSearchResult(licenceNumber: string, data: SandboxData, variant: PageVariant): string {
  // Like the register, anything that is not a 16-digit number simply finds nothing.
  if (!LICENCE_NUMBER.test(licenceNumber)) return renderNotFoundPage();
  if (data.tooManyResults.has(licenceNumber)) return renderTooManyResultsPage();
  const licences = data.licencesByNumber.get(licenceNumber);
  return licences === undefined ? renderNotFoundPage() : renderResultsPage(licences, variant);
}

const WRAPPER_CLASS = /^[A-Za-z][\w-]{0,63}$/;

/** The body of PUT /__sandbox/page-variant: {"field"?: {"label","value"}, "wrapperClass"?}; a 400 when it is not one. */
function parsePageVariant(body: unknown): PageVariant {
  const refuse = (message: string) => new ClientInputError(400, `page variant: ${message}`);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw refuse('must be an object');
  const { field, wrapperClass, ...unknown } = body as Record<string, unknown>;
  if (Object.keys(unknown).length > 0) throw refuse(`unknown keys ${Object.keys(unknown).join(', ')}`);
  const variant: PageVariant = {};
  if (field !== undefined) {
    const { label, value } = (typeof field === 'object' && field !== null ? field : {}) as Record<string, unknown>;
    if (typeof label !== 'string' || label.trim() === '' || typeof value !== 'string')
      throw refuse('field must be {"label": non-empty text, "value": text}');
    variant.field = { label, value };
  }
  if (wrapperClass !== undefined) {
    if (typeof wrapperClass !== 'string' || !WRAPPER_CLASS.test(wrapperClass)) throw refuse('wrapperClass must be one class name');
    variant.wrapperClass = wrapperClass;
  }
  return variant;
}

/** Stands in for a licence the data set lacks, so a truncated page can be cut inside a real-looking card. */
function placeholderLicence(licenceNumber: string): SandboxLicence {
  return {
    licenceNumber,
    firstName: 'TRUNCATED',
    middleName: null,
    surname: 'PAGE',
    dateOfBirth: null,
    role: 'Front Line',
    licenceSector: 'Door Supervision',
    expiryDate: '2027-01-01',
    status: 'Active',
    statusReason: null,
    additionalConditions: null,
  };
}

/** The body of POST /__sandbox/licences, checked as a data file's licence is; a 400 when it is not one. */
function parseAddedLicence(body: unknown): SandboxLicence {
  try {
    return parseSandboxLicence(body, 'body');
  } catch (error) {
    throw new ClientInputError(400, error instanceof Error ? error.message : String(error));
  }
}

async function readRequestBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BODY_BYTES) throw new ClientInputError(413, 'request body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ClientInputError(400, 'body must be JSON');
  }
}

function sendHtml(response: ServerResponse, statusCode: number, html: string): void {
  send(response, statusCode, 'text/html; charset=utf-8', html);
}

function sendJson(response: ServerResponse, statusCode: number, body: unknown): void {
  send(response, statusCode, 'application/json; charset=utf-8', JSON.stringify(body));
}

function send(response: ServerResponse, statusCode: number, contentType: string, body: string): void {
  response.writeHead(statusCode, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}
