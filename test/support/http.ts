/** A response as the tests inspect it: exact status, headers and parsed JSON body. */
export interface TestResponse {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
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
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** POST /v1/licences/verify with a key and optional Idempotency-Key. */
export function verify(
  baseUrl: string,
  apiKey: string,
  licenceNumber: string,
  idempotencyKey?: string,
): Promise<TestResponse> {
  const headers: Record<string, string> = { 'x-api-key': apiKey };
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  return request(baseUrl, 'POST', '/v1/licences/verify', { headers, body: { licenceNumber } });
}

export function quotaUsage(baseUrl: string, apiKey: string): Promise<TestResponse> {
  return request(baseUrl, 'GET', '/v1/quota/usage', { headers: { 'x-api-key': apiKey } });
}
