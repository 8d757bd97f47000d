import { parseArgs } from 'node:util';

export type KeysCommand =
  | { command: 'create'; name: string; quota: number | null; expiresAt: Date | null; userId: string | null }
  | { command: 'list' }
  | { command: 'revoke'; keyId: string }
  | { command: 'set-quota'; userId: string; quota: number | null }
  | { command: 'set-rate-limit'; userId: string; ratePerSecond: number | null }
  | { command: 'disable-user' | 'enable-user'; userId: string }
  | { command: 'reencrypt-webhook-secrets' }
  | { command: 'receipt-key' };

export class UsageError extends Error {}

export const KEYS_USAGE = `Usage:
  keys create --name NAME [--quota N] [--expires-at ISO-8601] [--user USER_ID]
  keys list
  keys revoke KEY_ID
  keys set-quota USER_ID N|unlimited
  keys set-rate-limit USER_ID N|default
  keys disable-user USER_ID
  keys enable-user USER_ID
  keys reencrypt-webhook-secrets
  keys receipt-key`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// A date (midnight UTC), or a date and time with its zone: a time without one would be read in
// whatever zone the operator's machine happens to use.
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/;

/** Parses --expires-at; null when it is not ISO-8601 or names a day that does not exist. */
function parseExpiry(text: string): Date | null {
  const match = ISO_8601.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Date rolls 30 February over into March; the calendar must hold the day as written.
  const calendarDay = new Date(Date.UTC(year, month - 1, day));
  if (calendarDay.getUTCMonth() !== month - 1 || calendarDay.getUTCDate() !== day) return null;
  const instant = new Date(text);
  return Number.isNaN(instant.getTime()) ? null : instant;
}

function parseQuota(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 2_147_483_647) {
    throw new UsageError(`Quota must be a whole number from 0 to 2147483647, got "${text}"`);
  }
  return Number(text);
}

function parseRate(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 1_000_000) {
    throw new UsageError(`Rate must be a whole number of requests per second from 1 to 1000000, got "${text}"`);
  }
  return Number(text);
}

function parseUuid(text: string | undefined, what: string): string {
  if (!text || !UUID.test(text)) throw new UsageError(`${what} must be a UUID`);
  return text.toLowerCase();
}

/** `COMMAND USER_ID N|<word>`: the user and the number, or null for the word. */
function userSetting(command: string, rest: string[], word: string, parse: (text: string) => number): { userId: string; value: number | null } {
  if (rest.length !== 2) throw new UsageError(`${command} takes USER_ID and N|${word}`);
  return { userId: parseUuid(rest[0], 'USER_ID'), value: rest[1] === word ? null : parse(rest[1]) };
}

/** Parses the arguments of `npm run keys -- …`; throws UsageError with a message for the operator. */
export function parseKeysCommand(argv: string[]): KeysCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        name: { type: 'string' },
        quota: { type: 'string' },
        'expires-at': { type: 'string' },
        user: { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  const onlyCreateOptions = () => {
    if (Object.keys(values).length > 0) throw new UsageError(`"${command}" takes no options`);
  };
  switch (command) {
    case 'create': {
      if (rest.length > 0) throw new UsageError('create takes no positional arguments');
      const name = values.name?.trim();
      if (!name) throw new UsageError('--name is required');
      if (values.user !== undefined && values.quota !== undefined) {
        throw new UsageError('--quota belongs to the user: with --user, use set-quota instead');
      }
      let expiresAt: Date | null = null;
      if (values['expires-at'] !== undefined) {
        const text = values['expires-at'];
        expiresAt = parseExpiry(text);
        if (expiresAt === null) {
          throw new UsageError(`--expires-at must be an ISO-8601 date, or date and time with a zone, got "${text}"`);
        }
      }
      return {
        command,
        name,
        quota: values.quota === undefined ? null : parseQuota(values.quota),
        expiresAt,
        userId: values.user === undefined ? null : parseUuid(values.user, '--user'),
      };
    }
    case 'list':
      onlyCreateOptions();
      if (rest.length > 0) throw new UsageError('list takes no arguments');
      return { command };
    case 'revoke':
      onlyCreateOptions();
      if (rest.length !== 1) throw new UsageError('revoke takes exactly one KEY_ID');
      return { command, keyId: parseUuid(rest[0], 'KEY_ID') };
    case 'set-quota': {
      onlyCreateOptions();
      const { userId, value } = userSetting(command, rest, 'unlimited', parseQuota);
      return { command, userId, quota: value };
    }
    case 'set-rate-limit': {
      onlyCreateOptions();
      const { userId, value } = userSetting(command, rest, 'default', parseRate);
      return { command, userId, ratePerSecond: value };
    }
    case 'disable-user':
    case 'enable-user':
      onlyCreateOptions();
      if (rest.length !== 1) throw new UsageError(`${command} takes exactly one USER_ID`);
      return { command, userId: parseUuid(rest[0], 'USER_ID') };
    case 'reencrypt-webhook-secrets':
      onlyCreateOptions();
      if (rest.length > 0) throw new UsageError('reencrypt-webhook-secrets takes no arguments');
      return { command };
    case 'receipt-key':
      onlyCreateOptions();
      if (rest.length > 0) throw new UsageError('receipt-key takes no arguments');
      return { command };
    default:
      throw new UsageError(command ? `Unknown command "${command}"` : 'A command is required');
  }
}
