import { ERROR_CODES, VALIDATION_MESSAGES } from '../../src/errors/error-codes';
import { RawAnswer } from '../support/raw-http';

/** Every status docs/api.md documents for the API (500 is documented too, but must never happen here). */
export const DOCUMENTED_STATUSES = [200, 202, 400, 401, 404, 408, 409, 429, 431, 502, 503];

const FIXED_MESSAGES = new Set<string>([...Object.values(ERROR_CODES).map((entry) => entry.message), ...Object.values(VALIDATION_MESSAGES)]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const RESULT_STATUS: Record<string, number> = { FOUND: 200, PENDING: 202, NOT_FOUND: 404, TOO_MANY_RESULTS: 409 };

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const hasExactKeys = (value: unknown, keys: string[]): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && JSON.stringify(Object.keys(value).sort()) === JSON.stringify([...keys].sort());

/** Why an answer is outside the contract, or null when it is inside. */
export function judgeAnswer(answer: RawAnswer): string | null {
  if (!DOCUMENTED_STATUSES.includes(answer.status)) return `undocumented status ${answer.status}`;
  if (!/^application\/json/.test(answer.headers['content-type'] ?? '')) {
    return `content type ${answer.headers['content-type']} for status ${answer.status}`;
  }
  const body = parseJson(answer.body);
  if (hasExactKeys(body, ['code', 'message'])) {
    const entry = ERROR_CODES[body.code as keyof typeof ERROR_CODES];
    if (!entry) return `unknown code ${String(body.code)}`;
    if (entry.status !== answer.status) return `code ${String(body.code)} with status ${answer.status}`;
    if (!FIXED_MESSAGES.has(body.message as string)) return `message not from the table: ${JSON.stringify(body.message)}`;
    return null;
  }
  // Random paths and raw request lines reach the real routes too, so results are judged by their shape. A final
  // result names its verification record; PENDING has none yet.
  const pending = hasExactKeys(body, ['status', 'message', 'licence', 'checkedAt']) && body.status === 'PENDING';
  const final = hasExactKeys(body, ['status', 'message', 'licence', 'checkedAt', 'verificationId']) && body.status !== 'PENDING';
  if (pending || final) {
    if (final && !UUID.test(String(body.verificationId))) return `verificationId ${String(body.verificationId)} is not a UUID`;
    return RESULT_STATUS[body.status as string] === answer.status ? null : `result ${String(body.status)} with ${answer.status}`;
  }
  if (answer.status === 200 && hasExactKeys(body, ['period', 'used', 'quota', 'remaining'])) {
    return null;
  }
  return `body outside the contract: ${answer.body.slice(0, 200)}`;
}
