import createClient, { type Client } from 'openapi-fetch';
import { LicenceVerificationError, type ErrorCode } from './errors.js';
import type { components, paths } from './generated/openapi.js';
import { Receipts } from './receipts.js';
import { parseRetryAfter, retryDelayMs } from './retry-policy.js';

type Schemas = components['schemas'];
type Query<Path extends keyof paths> = paths[Path] extends { get: { parameters: { query?: infer Q } } } ? NonNullable<Q> : never;

export type Mode = 'live' | 'test';

export interface ClientOptions {
  /** an lvs_… key; a test key (lvs_test_…) works against the test register */
  apiKey: string;
  /** the service's address, e.g. https://YOUR-LVS-HOST */
  baseUrl: string;
  /** how long one attempt may wait for the answer's headers (default 30 s) */
  timeoutMs?: number;
  /** automatic retries of 429 RATE_LIMITED, 502, 503 and network errors (default 3) */
  maxRetries?: number;
  fetch?: typeof fetch;
}

/** What every verify, verifyHolder and search result carries besides its body. */
export interface AnswerContext {
  /** live, or test for a test key's answer (the Verification-Mode header) */
  mode: Mode;
  /** the Idempotency-Key the request was sent with: pass it again to resume a PENDING one */
  idempotencyKey: string;
}

export type Pending<Body> = Body & AnswerContext & { retryAfterSeconds: number };
type Final<Body> = Body & AnswerContext;

export type VerificationResult =
  | Final<Schemas['VerificationFoundDto'] | Schemas['VerificationNotFoundDto'] | Schemas['VerificationTooManyResultsDto']>
  | Pending<Schemas['VerificationPendingDto']>;
export type HolderResult =
  Final<Schemas['HolderFoundDto'] | Schemas['HolderNotFoundDto'] | Schemas['HolderTooManyResultsDto']> | Pending<Schemas['HolderPendingDto']>;
export type SearchResult = Final<Schemas['SearchFoundDto'] | Schemas['SearchNotFoundDto']> | Pending<Schemas['SearchPendingDto']>;

export interface WaitOptions {
  /** how long to keep retrying PENDING before resolving it (default 60) */
  waitSeconds?: number;
  /** the key of an earlier PENDING answer to resume, or your own */
  idempotencyKey?: string;
}

type Outcome<Data> = { data?: Data; error?: unknown; response: Response };

const DEFAULT_WAIT_SECONDS = 60;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function errorFrom(response: Response, body: unknown): LicenceVerificationError {
  const { code, message } = (body ?? {}) as { code?: ErrorCode; message?: string };
  return new LicenceVerificationError(
    response.status,
    code ?? 'INTERNAL_ERROR',
    message ?? `HTTP ${response.status}`,
    response.headers.get('X-Request-Id') ?? undefined,
    parseRetryAfter(response.headers.get('Retry-After')),
  );
}

/** The 2xx body, or the error body thrown as a LicenceVerificationError. */
async function dataOf<Data>(call: Promise<Outcome<Data>>): Promise<Data> {
  const { data, error, response } = await call;
  if (!response.ok) throw errorFrom(response, error);
  return data as Data;
}

/** Every item of every page, following nextCursor until the last page. */
async function* pages<Page, Item>(
  fetchPage: (cursor: string | undefined) => Promise<Page>,
  itemsOf: (page: Page) => Item[],
  cursorOf: (page: Page) => string | null,
): AsyncGenerator<Item> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield* itemsOf(page);
    cursor = cursorOf(page) ?? undefined;
  } while (cursor !== undefined);
}

/**
 * The Licence Verification Service's client: verify in one call, typed errors, automatic retries that are always
 * idempotent, lists as async iterators, receipt verification and test-mode helpers.
 */
export class LicenceVerificationClient {
  readonly receipts: Receipts;
  private readonly api: Client<paths>;
  private readonly baseUrl: string;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const fetchImplementation = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.api = createClient<paths>({
      baseUrl: this.baseUrl,
      headers: { 'X-API-Key': options.apiKey },
      fetch: (request: Request) => this.sendWithRetries(request, fetchImplementation),
    });
    this.receipts = new Receipts(this.baseUrl, fetchImplementation);
  }

  /** Verifies a licence number: the final result, or PENDING with its key once waitSeconds have passed. */
  verify(licenceNumber: string, options: WaitOptions = {}): Promise<VerificationResult> {
    return this.untilFinal(options, (key) =>
      this.api.POST('/v1/licences/verify', { params: { header: { 'Idempotency-Key': key } }, body: { licenceNumber } }),
    );
  }

  /** Checks that a licence belongs to the named holder (verify-holder), waiting out PENDING as verify() does. */
  verifyHolder(check: Schemas['VerifyHolderDto'], options: WaitOptions = {}): Promise<HolderResult> {
    return this.untilFinal(options, (key) => this.api.POST('/v1/licences/verify-holder', { params: { header: { 'Idempotency-Key': key } }, body: check }));
  }

  /** Searches the register by name, waiting out PENDING as verify() does. */
  search(query: Schemas['NameSearchDto'], options: WaitOptions = {}): Promise<SearchResult> {
    return this.untilFinal(options, (key) => this.api.POST('/v1/licences/search', { params: { header: { 'Idempotency-Key': key } }, body: query }));
  }

  readonly verifications = {
    list: (filters: Omit<Query<'/v1/verifications'>, 'cursor'> = {}) =>
      pages(
        (cursor) => dataOf(this.api.GET('/v1/verifications', { params: { query: { ...filters, cursor } } })),
        (page) => page.verifications,
        (page) => page.nextCursor,
      ),
    get: (id: string) => dataOf(this.api.GET('/v1/verifications/{id}', { params: { path: { id } } })),
    /** the record signed by the service: a compact JWS, for receipts.verify() or any JOSE library */
    receipt: (id: string) => dataOf(this.api.GET('/v1/verifications/{id}/receipt', { params: { path: { id } }, parseAs: 'text' })),
    /** the records as CSV, streamed */
    export: (filters: Query<'/v1/verifications/export'> = {}) =>
      dataOf(this.api.GET('/v1/verifications/export', { params: { query: filters }, parseAs: 'stream' })) as Promise<ReadableStream<Uint8Array>>,
  };

  readonly batches = {
    /** a batch of numbers, of rows with references, or a CSV file's text */
    create: (roster: string[] | Schemas['RosterItemDto'][] | string, options: { idempotencyKey?: string } = {}) => {
      const header = { 'Idempotency-Key': options.idempotencyKey ?? crypto.randomUUID() };
      if (typeof roster === 'string') {
        return dataOf(
          this.api.POST('/v1/batches', {
            params: { header },
            body: roster as never,
            bodySerializer: (csv: unknown) => csv as string,
            headers: { 'Content-Type': 'text/csv' },
          }),
        );
      }
      const body = isNumberList(roster) ? { licenceNumbers: roster } : { items: roster };
      return dataOf(this.api.POST('/v1/batches', { params: { header }, body }));
    },
    get: (id: string) => this.batchPage(id, undefined, 1),
    list: () =>
      pages(
        (cursor) => dataOf(this.api.GET('/v1/batches', { params: { query: { cursor } } })),
        (page) => page.batches,
        (page) => page.nextCursor,
      ),
    /** polls the batch until it is COMPLETED, or throws once timeoutSeconds (default 300) have passed */
    waitFor: async (id: string, { timeoutSeconds = 300, pollSeconds = 1 }: { timeoutSeconds?: number; pollSeconds?: number } = {}) => {
      const deadline = Date.now() + timeoutSeconds * 1000;
      for (;;) {
        const batch = await this.batches.get(id);
        if (batch.status === 'COMPLETED') return batch;
        if (Date.now() + pollSeconds * 1000 > deadline) throw new Error(`batch ${id} is still ${batch.status} after ${timeoutSeconds} s`);
        await sleep(pollSeconds * 1000);
      }
    },
    /** the batch's rows, page by page */
    results: (id: string) =>
      pages(
        (cursor) => this.batchPage(id, cursor),
        (page) => page.items,
        (page) => page.nextCursor,
      ),
    resultsCsv: (id: string) => dataOf(this.api.GET('/v1/batches/{id}/results.csv', { params: { path: { id } }, parseAs: 'text' })),
    /** looks up again the rows whose lookup failed */
    retry: (id: string) => dataOf(this.api.POST('/v1/batches/{id}/retry', { params: { path: { id } } })),
  };

  readonly watchlist = {
    add: (licenceNumber: string, entry: Partial<Schemas['WatchRequestDto']> = {}) =>
      dataOf(this.api.PUT('/v1/watchlist/{licenceNumber}', { params: { path: { licenceNumber } }, body: { followSuccessor: false, ...entry } })),
    addMany: (body: paths['/v1/watchlist:batchAdd']['post']['requestBody']['content']['application/json']) =>
      dataOf(this.api.POST('/v1/watchlist:batchAdd', { body })),
    remove: (licenceNumber: string) =>
      dataOf(this.api.DELETE('/v1/watchlist/{licenceNumber}', { params: { path: { licenceNumber } } })).then(() => undefined),
    list: (filters: Omit<Query<'/v1/watchlist'>, 'cursor'> = {}) =>
      pages(
        (cursor) => dataOf(this.api.GET('/v1/watchlist', { params: { query: { ...filters, cursor } } })),
        (page) => page.items,
        (page) => page.nextCursor,
      ),
  };

  readonly webhooks = {
    /** the answer carries the endpoint's signing secret, shown this once: keep it for verifyWebhook() */
    create: (endpoint: Schemas['CreateWebhookDto']) => dataOf(this.api.POST('/v1/webhooks', { body: endpoint })),
    list: async function* (this: void, client: LicenceVerificationClient) {
      yield* (await dataOf(client.api.GET('/v1/webhooks'))).webhooks;
    }.bind(undefined, this),
    /** changes the endpoint's url, its event types or both; what is left out stays */
    update: (id: string, change: Schemas['UpdateWebhookDto']) => dataOf(this.api.PATCH('/v1/webhooks/{id}', { params: { path: { id } }, body: change })),
    remove: (id: string) => dataOf(this.api.DELETE('/v1/webhooks/{id}', { params: { path: { id } } })).then(() => undefined),
    rotateSecret: (id: string) => dataOf(this.api.POST('/v1/webhooks/{id}/rotate-secret', { params: { path: { id } } })),
    /** sends a ping event to the endpoint now */
    test: (id: string) => dataOf(this.api.POST('/v1/webhooks/{id}/test', { params: { path: { id } } })),
    deliveries: async function* (this: void, client: LicenceVerificationClient, id: string) {
      yield* (await dataOf(client.api.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id } } }))).deliveries;
    }.bind(undefined, this),
    retryDelivery: (id: string, deliveryId: string) =>
      dataOf(this.api.POST('/v1/webhooks/{id}/deliveries/{deliveryId}/retry', { params: { path: { id, deliveryId } } })),
  };

  readonly keys = {
    /** the answer carries the new key, shown this once */
    create: (key: Schemas['CreateKeyDto']) => dataOf(this.api.POST('/v1/keys', { body: key })),
    list: async function* (this: void, client: LicenceVerificationClient) {
      yield* (await dataOf(client.api.GET('/v1/keys'))).keys;
    }.bind(undefined, this),
    revoke: (id: string) => dataOf(this.api.DELETE('/v1/keys/{id}', { params: { path: { id } } })).then(() => undefined),
  };

  readonly quota = {
    usage: () => dataOf(this.api.GET('/v1/quota/usage')),
    history: async function* (this: void, client: LicenceVerificationClient, query: Query<'/v1/quota/history'> = {}) {
      yield* (await dataOf(client.api.GET('/v1/quota/history', { params: { query } }))).periods;
    }.bind(undefined, this),
  };

  readonly events = {
    /** the events after `after` (from the start without it), until the feed has no more for now */
    list: (options: { after?: string; limit?: number } = {}) =>
      pages(
        (cursor) => dataOf(this.api.GET('/v1/events', { params: { query: { limit: options.limit, after: cursor ?? options.after } } })),
        (page) => page.events,
        // The feed's cursor stays put when there is nothing new: an empty page is the end for now.
        (page) => (page.events.length === 0 ? null : page.nextCursor),
      ),
  };

  /** Test mode (test keys only): change a licence in your own test register, and undo it. */
  readonly test = {
    simulate: (licenceNumber: string, change: Schemas['SimulateChangeDto']) =>
      this.withMode(this.api.POST('/v1/test/licences/{licenceNumber}', { params: { path: { licenceNumber } }, body: change })),
    restore: (licenceNumber: string) => this.withMode(this.api.DELETE('/v1/test/licences/{licenceNumber}', { params: { path: { licenceNumber } } })),
  };

  /** One page of a batch's rows with its summary (the answer is JSON unless results.csv is asked for). */
  private batchPage(id: string, cursor?: string, limit?: number): Promise<Schemas['BatchDto']> {
    return dataOf(this.api.GET('/v1/batches/{id}', { params: { path: { id }, query: { cursor, limit } } })) as Promise<Schemas['BatchDto']>;
  }

  private async withMode<Data>(call: Promise<Outcome<Data>>): Promise<Data & { mode: Mode }> {
    const outcome = await call;
    return { ...(await dataOf(Promise.resolve(outcome))), mode: modeOf(outcome.response) };
  }

  /** Sends with one Idempotency-Key until the result is final or waitSeconds have passed; results are never errors. */
  private async untilFinal<Result extends { status: string }>(
    options: WaitOptions,
    send: (idempotencyKey: string) => Promise<Outcome<unknown>>,
  ): Promise<Result> {
    const idempotencyKey = options.idempotencyKey ?? crypto.randomUUID();
    const deadline = Date.now() + (options.waitSeconds ?? DEFAULT_WAIT_SECONDS) * 1000;
    for (;;) {
      const { data, error, response } = await send(idempotencyKey);
      const body = data ?? error;
      // 404 NOT_FOUND and 409 TOO_MANY_RESULTS are results (a status field); only a code field is an error.
      if (typeof body !== 'object' || body === null || !('status' in body)) throw errorFrom(response, error);
      const retryAfterSeconds = parseRetryAfter(response.headers.get('Retry-After')) ?? 1;
      const context = { mode: modeOf(response), idempotencyKey };
      if (body.status !== 'PENDING') return { ...body, ...context } as unknown as Result;
      if (Date.now() + retryAfterSeconds * 1000 > deadline) return { ...body, ...context, retryAfterSeconds } as unknown as Result;
      await sleep(retryAfterSeconds * 1000);
    }
  }

  /**
   * One request with its automatic retries (retry-policy.ts). A POST without an Idempotency-Key gets one here,
   * before the first attempt, so that every retry of it is the same request to the service.
   */
  private async sendWithRetries(original: Request, fetchImplementation: typeof fetch): Promise<Response> {
    const request = original.method === 'POST' && !original.headers.has('Idempotency-Key') ? withKey(original) : original;
    for (let retry = 1; ; retry++) {
      let outcome;
      let response: Response | undefined;
      try {
        response = await this.attempt(request.clone(), fetchImplementation);
        const retryAfterSeconds = parseRetryAfter(response.headers.get('Retry-After'));
        const code = response.status === 429 ? ((await response.clone().json()) as { code?: string }).code : undefined;
        outcome = { status: response.status, code, retryAfterSeconds };
      } catch (failure) {
        if (original.signal.aborted) throw failure;
        outcome = { networkError: true as const };
        const delay = retryDelayMs(outcome, retry, { maxRetries: this.options.maxRetries ?? 3, baseDelayMs: 250, random: Math.random });
        if (delay === null) throw failure;
        await sleep(delay);
        continue;
      }
      const delay = retryDelayMs(outcome, retry, { maxRetries: this.options.maxRetries ?? 3, baseDelayMs: 250, random: Math.random });
      if (delay === null) return response;
      await response.body?.cancel();
      await sleep(delay);
    }
  }

  /** One attempt, given timeoutMs (default 30 s) for the answer's headers; the body may take longer (exports). */
  private async attempt(request: Request, fetchImplementation: typeof fetch): Promise<Response> {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new Error(`no answer within ${this.options.timeoutMs ?? 30_000} ms`)),
      this.options.timeoutMs ?? 30_000,
    );
    try {
      return await fetchImplementation(new Request(request, { signal: AbortSignal.any([request.signal, controller.signal]) }));
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The service marks test keys' answers with Verification-Mode: test; live answers carry no such header. */
function modeOf(response: Response): Mode {
  return response.headers.get('Verification-Mode') === 'test' ? 'test' : 'live';
}

function isNumberList(roster: string[] | Schemas['RosterItemDto'][]): roster is string[] {
  return roster.every((row) => typeof row === 'string');
}

function withKey(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.set('Idempotency-Key', crypto.randomUUID());
  return new Request(request, { headers });
}
