import { Agent, request } from 'undici';
import type { Dispatcher } from 'undici';
import { nameSearchForm } from './name-search-form';
import { parseNameSearchPage, parseRegisterPage } from './parse-register-page';
import { readCappedBody } from './read-capped-body';
import { bodyExcerpt, RegisterError, RegisterParseError, RegisterUnavailableError, RegisterUnreachableError } from './register-errors';
import type { LookupOutcome, NameSearch, NameSearchOutcome } from './register-licence';
import { errorCode, unreachableReason } from './unreachable-reason';

const SEARCH_BY_LICENCE_PATH = '/PublicRegister/SearchPublicRegisterByLicence';
const SEARCH_BY_SURNAME_PATH = '/PublicRegister/SearchPublicRegisterBySurname';
const DEFAULT_REQUEST_TIMEOUT_MS = 4000;
const DEFAULT_MAX_RESPONSE_BYTES = 2 * 1024 * 1024;
const DEFAULT_MAX_CONNECTIONS = 16;
// The register turns away clients that do not look like a browser (REGISTER.md "Request").
const DEFAULT_USER_AGENT = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36';
/** Enough of an error page's body for a log excerpt; the rest is not read. */
const ERROR_BODY_READ_BYTES = 4096;
const HTML_MEDIA_TYPES = new Set(['text/html', 'application/xhtml+xml']);
/** A body cut short: the register answered, then failed us. Worth retrying, like the unreachable register (unreachableReason). */
const UNAVAILABLE_ERROR_CODES = new Set(['UND_ERR_RES_CONTENT_LENGTH_MISMATCH']);

/** What a caller may add to one search. */
export interface SearchOptions {
  signal?: AbortSignal;
  /** Given every HTML page the register answers with status 200, before it is parsed (the register watch's page shapes). */
  onPage?: (page: string) => void;
}

export interface RegisterClientOptions {
  /** e.g. http://127.0.0.1:4010; the search paths are appended. */
  baseUrl: string;
  /** Hard deadline for the whole request, body included. Default 4000. */
  requestTimeoutMs?: number;
  /** A longer body is abandoned as a parse error. Default 2 MiB. */
  maxResponseBytes?: number;
  /** Keep-alive pool size. Default 16. */
  maxConnections?: number;
  /** Default: a current desktop browser's. */
  userAgent?: string;
}

/**
 * Looks licences up on the public register, by number or by name: one HTTP request per search and no
 * retries of its own (the caller's queue retries RegisterUnavailableError).
 */
export class RegisterClient {
  /** host and port, for the errors that say it could not be reached */
  private readonly host: string;
  private readonly byLicenceUrl: string;
  private readonly bySurnameUrl: string;
  private readonly requestTimeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly userAgent: string;
  private readonly agent: Agent;

  constructor(options: RegisterClientOptions) {
    const baseUrl = checkedBaseUrl(options.baseUrl);
    this.byLicenceUrl = `${baseUrl}${SEARCH_BY_LICENCE_PATH}`;
    this.bySurnameUrl = `${baseUrl}${SEARCH_BY_SURNAME_PATH}`;
    this.host = new URL(baseUrl).host;
    this.requestTimeoutMs = positiveInteger('requestTimeoutMs', options.requestTimeoutMs, DEFAULT_REQUEST_TIMEOUT_MS);
    this.maxResponseBytes = positiveInteger('maxResponseBytes', options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES);
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    this.agent = new Agent({
      connections: positiveInteger('maxConnections', options.maxConnections, DEFAULT_MAX_CONNECTIONS),
    });
  }

  /**
   * Resolves with the outcome; rejects with RegisterUnavailableError or RegisterParseError, or with
   * the abort reason of the caller's signal.
   */
  async lookup(licenceNumber: string, options: SearchOptions = {}): Promise<LookupOutcome> {
    return this.search(this.byLicenceUrl, new URLSearchParams({ LicenseNo: licenceNumber }), options, (page) => parseRegisterPage(page, licenceNumber));
  }

  /**
   * Searches by name: every licence whose holder fits the search, possibly several for one person. Resolves
   * and rejects as lookup does, and rejects with TypeError, before any request, for a blank surname or a
   * date of birth that is not YYYY-MM-DD.
   */
  async searchByName(search: NameSearch, options: SearchOptions = {}): Promise<NameSearchOutcome> {
    return this.search(this.bySurnameUrl, nameSearchForm(search), options, parseNameSearchPage);
  }

  /** Closes the connection pool, once requests in flight have ended. */
  async close(): Promise<void> {
    await this.agent.close();
  }

  /** One POST of the form, within the deadline and the caller's signal, its page read by parse. */
  private async search<Outcome>(url: string, form: URLSearchParams, options: SearchOptions, parse: (page: string) => Outcome): Promise<Outcome> {
    const { signal: callerSignal, onPage } = options;
    callerSignal?.throwIfAborted();

    let httpStatus: number | null = null;
    // One controller serves both the deadline and the caller; wired by hand so that the caller's
    // signal keeps no listener once the lookup has ended.
    const abort = new AbortController();
    const deadline = setTimeout(() => {
      abort.abort(new RegisterUnreachableError(this.host, 'timeout', `no answer within ${this.requestTimeoutMs} ms`, { httpStatus }));
    }, this.requestTimeoutMs);
    const forwardCallerAbort = (): void => abort.abort(callerSignal?.reason);
    callerSignal?.addEventListener('abort', forwardCallerAbort, { once: true });

    try {
      const response = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        signal: abort.signal,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'user-agent': this.userAgent,
          accept: 'text/html,application/xhtml+xml',
        },
        body: form.toString(),
      });
      httpStatus = response.statusCode;
      return await this.readOutcome(response, parse, onPage);
    } catch (error) {
      if (error instanceof RegisterError) throw error;
      if (abort.signal.aborted) throw abort.signal.reason;
      throw transportFailure(error, httpStatus, this.host);
    } finally {
      clearTimeout(deadline);
      callerSignal?.removeEventListener('abort', forwardCallerAbort);
    }
  }

  private async readOutcome<Outcome>(
    response: Dispatcher.ResponseData,
    parse: (page: string) => Outcome,
    onPage: SearchOptions['onPage'],
  ): Promise<Outcome> {
    const { statusCode: httpStatus, headers, body } = response;

    if (httpStatus !== 200) {
      const excerpt = bodyExcerpt((await readCappedBody(body, ERROR_BODY_READ_BYTES)).text);
      const retryable = httpStatus >= 500 || httpStatus === 429;
      const ErrorClass = retryable ? RegisterUnavailableError : RegisterParseError;
      throw new ErrorClass(`Register answered HTTP ${httpStatus}`, { httpStatus, excerpt });
    }

    const mediaType = mediaTypeOf(headers['content-type']);
    if (!HTML_MEDIA_TYPES.has(mediaType)) {
      const excerpt = bodyExcerpt((await readCappedBody(body, ERROR_BODY_READ_BYTES)).text);
      throw new RegisterParseError(`Register answered non-HTML content "${mediaType}"`, { httpStatus, excerpt });
    }

    const page = await readCappedBody(body, this.maxResponseBytes);
    if (page.exceeded) {
      throw new RegisterParseError(`Register page is larger than ${this.maxResponseBytes} bytes`, {
        httpStatus,
        excerpt: bodyExcerpt(page.text),
      });
    }
    onPage?.(page.text);
    try {
      return parse(page.text);
    } catch (error) {
      // The parser knows nothing of HTTP; add the status so the log line is complete.
      if (error instanceof RegisterParseError) {
        throw new RegisterParseError(error.message, { httpStatus, excerpt: error.excerpt, cause: error });
      }
      throw error;
    }
  }
}

/** The base URL without its trailing slashes, for the search paths to follow. */
function checkedBaseUrl(baseUrl: string): string {
  const url = URL.parse(baseUrl);
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new TypeError('RegisterClientOptions.baseUrl must be an http(s) URL');
  }
  return baseUrl.replace(/\/+$/, '');
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`RegisterClientOptions.${name} must be a positive integer`);
  }
  return value;
}

function mediaTypeOf(contentType: string | string[] | undefined): string {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  return (value ?? '').split(';')[0].trim().toLowerCase();
}

function transportFailure(error: unknown, httpStatus: number | null, host: string): RegisterError {
  const code = errorCode(error);
  if (code === undefined) return new RegisterParseError('Register request failed unexpectedly', { httpStatus, cause: error });
  const reason = unreachableReason(code);
  if (reason !== null) return new RegisterUnreachableError(host, reason, code, { httpStatus, cause: error });
  if (UNAVAILABLE_ERROR_CODES.has(code)) {
    return new RegisterUnavailableError(`Register connection failed (${code})`, { httpStatus, cause: error });
  }
  return new RegisterParseError(`Register request failed unexpectedly (${code})`, { httpStatus, cause: error });
}
