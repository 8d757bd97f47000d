import { OpenApiContract } from './openapi-contract';

/** A response as the tests inspect it: exact status, headers and parsed JSON body. */
export interface TestResponse {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

// One document per app under test, fetched from the app itself.
const contracts = new Map<string, Promise<OpenApiContract>>();

/** Fetches and compiles the app's document; the test app does it at start, so no timed test pays for it. */
export function loadServedDocument(baseUrl: string): Promise<OpenApiContract> {
  if (!contracts.has(baseUrl)) contracts.set(baseUrl, OpenApiContract.fetch(baseUrl));
  return contracts.get(baseUrl)!;
}

/**
 * Fails the calling test when an answer to an operation of the served OpenAPI document does not match it;
 * routes the document leaves out (health probes, the docs themselves) are not checked.
 */
async function checkAgainstDocument(baseUrl: string, method: string, path: string, response: TestResponse): Promise<void> {
  const problems = (await loadServedDocument(baseUrl)).checkAnswer(method, path, response);
  if (problems.length > 0) throw new Error(`The answer does not match the served OpenAPI document:\n  ${problems.join('\n  ')}`);
}

export async function request(
  baseUrl: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | object } = {},
): Promise<TestResponse> {
  const headers = { ...options.headers };
  let body: string | undefined;
  if (typeof options.body === 'object') {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  } else {
    body = options.body;
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const answer = { status: response.status, headers: response.headers, body: parsed, text };
  await checkAgainstDocument(baseUrl, method, path, answer);
  return answer;
}

/** POST /v1/licences/verify with a key and optional Idempotency-Key. */
export function verify(baseUrl: string, apiKey: string, licenceNumber: string, idempotencyKey?: string): Promise<TestResponse> {
  const headers: Record<string, string> = { 'x-api-key': apiKey };
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  return request(baseUrl, 'POST', '/v1/licences/verify', { headers, body: { licenceNumber } });
}

/**
 * verify, asked again as a partner does after a 202 (the same request, so the same derived Idempotency-Key, joins
 * the same lookup), until the answer is final: for tests about what the answer is and what is charged, not how
 * fast it comes. Any other answer, a 503 included, ends it.
 */
export async function verifyUntilFinal(baseUrl: string, apiKey: string, licenceNumber: string, attempts = 20): Promise<TestResponse> {
  let answer = await verify(baseUrl, apiKey, licenceNumber);
  for (let attempt = 1; attempt < attempts && answer.status === 202; attempt++) {
    answer = await verify(baseUrl, apiKey, licenceNumber);
  }
  return answer;
}

export function quotaUsage(baseUrl: string, apiKey: string): Promise<TestResponse> {
  return request(baseUrl, 'GET', '/v1/quota/usage', { headers: { 'x-api-key': apiKey } });
}

/** `used` of GET /v1/quota/usage. */
export async function quotaUsed(baseUrl: string, apiKey: string): Promise<number> {
  return ((await quotaUsage(baseUrl, apiKey)).body as { used: number }).used;
}

/** POST /v1/licences/verify-holder with a key and optional Idempotency-Key. */
export function verifyHolder(baseUrl: string, apiKey: string, body: object, idempotencyKey?: string): Promise<TestResponse> {
  const headers: Record<string, string> = { 'x-api-key': apiKey };
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  return request(baseUrl, 'POST', '/v1/licences/verify-holder', { headers, body });
}

/** POST /v1/licences/search with a key and optional Idempotency-Key. */
export function searchLicences(baseUrl: string, apiKey: string, body: object, idempotencyKey?: string): Promise<TestResponse> {
  const headers: Record<string, string> = { 'x-api-key': apiKey };
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  return request(baseUrl, 'POST', '/v1/licences/search', { headers, body });
}
