import { ERROR_CODES, VALIDATION_MESSAGES } from '../errors/error-codes';

type ErrorTable = Readonly<Record<string, { status: number; message: string }>>;

export interface ErrorExample {
  summary: string;
  value: { code: string; message: string };
}

/** A response header as the document describes it. */
export interface ErrorHeaderDoc {
  required: boolean;
  description: string;
  schema: { type: 'integer'; minimum: number };
}

/** The error answers of one HTTP status, as the document describes them. */
export interface ErrorResponseDoc {
  status: number;
  description: string;
  /** one example per text the service really sends with that status */
  examples: Record<string, ErrorExample>;
  /** headers its codes carry; required when every code of the status carries it */
  headers?: Record<string, ErrorHeaderDoc>;
}

/** Headers that come with a code's answer (ApiError's headers). */
const HEADERS_OF_CODE: Readonly<Record<string, Record<string, Omit<ErrorHeaderDoc, 'required'>>>> = {
  RATE_LIMITED: { 'Retry-After': { description: 'Whole seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } } },
};

function headersOf(codes: readonly string[]): Record<string, ErrorHeaderDoc> | undefined {
  const names = [...new Set(codes.flatMap((code) => Object.keys(HEADERS_OF_CODE[code] ?? {})))];
  if (names.length === 0) return undefined;
  return Object.fromEntries(
    names.map((name) => {
      const carriers = codes.filter((code) => HEADERS_OF_CODE[code]?.[name] !== undefined);
      return [name, { ...HEADERS_OF_CODE[carriers[0]][name], required: carriers.length === codes.length }];
    }),
  );
}

/** The VALIDATION_ERROR texts one route sends, by example name. */
export type ValidationTexts = Readonly<Record<string, string>>;

interface DocSources {
  table: ErrorTable;
  validationTexts: ValidationTexts;
}

/** Every text a code is sent with: VALIDATION_ERROR names what was wrong, every other code has one text. */
function messagesOf(code: string, { table, validationTexts }: DocSources): Array<[name: string, message: string]> {
  if (code === 'VALIDATION_ERROR') return Object.entries(validationTexts);
  return [[code, table[code].message]];
}

function describeCode(code: string, sources: DocSources): string {
  const messages = messagesOf(code, sources);
  return messages.length === 1 ? `${code}: ${messages[0][1]}` : `${code}: one message per problem, see the examples`;
}

/**
 * Groups a route's error codes by HTTP status (two codes may share one) with an example per real message,
 * taken from the error table, so a code added there documents itself.
 */
export function errorResponseDocs(
  codes: readonly string[],
  validationTexts: ValidationTexts = VALIDATION_MESSAGES,
  table: ErrorTable = ERROR_CODES,
): ErrorResponseDoc[] {
  const sources = { table, validationTexts };
  const byStatus = new Map<number, string[]>();
  for (const code of new Set(codes)) {
    const { status } = table[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return [...byStatus].map(([status, sameStatus]) => {
    const headers = headersOf(sameStatus);
    return {
      status,
      description: sameStatus.map((code) => describeCode(code, sources)).join('; '),
      examples: Object.fromEntries(
        sameStatus.flatMap((code) => messagesOf(code, sources).map(([name, message]) => [name, { summary: message, value: { code, message } }])),
      ),
      ...(headers === undefined ? {} : { headers }),
    };
  });
}
