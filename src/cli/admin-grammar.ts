import { parseArgs } from 'node:util';
import { parseExpiry } from '../auth/key-expiry';
import { MEMBER_ROLES, MemberRole } from '../members/member-role';
import { REASON_MAX_LENGTH } from '../operator-console/operator-reason';
import { OPERATOR_ROLES, OperatorRole } from '../operator-console/operator-role';
import { looksLikeEmail } from '../people/email-address';

export type AdminCommand =
  | { command: 'create'; name: string; quota: number | null; expiresAt: Date | null; userId: string | null; test: boolean; reason?: string }
  | { command: 'list' }
  | { command: 'revoke'; keyId: string; reason?: string }
  | { command: 'set-quota'; userId: string; quota: number | null; reason?: string }
  | { command: 'set-rate-limit'; userId: string; ratePerSecond: number | null; reason?: string }
  | { command: 'set-watch-limit'; userId: string; watchLimit: number | null; reason?: string }
  | { command: 'set-live-limit'; userId: string; liveLookupLimit: number | null; reason?: string }
  | { command: 'create-partner'; name: string; quota: number | null; email: string; reason?: string }
  | { command: 'reset-factor'; userId: string; email: string; reason?: string }
  | { command: 'disable-user' | 'enable-user'; userId: string; reason?: string }
  | { command: 'delete-user'; userId: string; confirmed: boolean; reason?: string }
  | { command: 'reseal-secrets' | 'reseal-holder-data' }
  | { command: 'receipt-key' }
  | { command: 'canary'; action: 'acknowledge' | 'rebaseline' }
  | { command: 'shape-list' }
  | { command: 'shape-acknowledge'; shape: string }
  | { command: 'activity-verify'; userId: string }
  | { command: 'invite'; userId: string; email: string; role: MemberRole }
  | { command: 'invite-operator'; email: string; name: string; role: OperatorRole }
  | { command: 'disable-operator' | 'enable-operator' | 'remove-operator'; email: string; reason?: string }
  | { command: 'set-operator-role'; email: string; role: OperatorRole; reason?: string };

export class UsageError extends Error {}

export const ADMIN_USAGE = `Usage:
  admin create --name NAME [--quota N] [--expires-at ISO-8601] [--user USER_ID] [--reason TEXT]
  admin create --name NAME --test [--expires-at ISO-8601] [--user USER_ID] [--reason TEXT]
  admin list
  admin revoke KEY_ID [--reason TEXT]
  admin set-quota USER_ID N|unlimited [--reason TEXT]
  admin set-rate-limit USER_ID N|default [--reason TEXT]
  admin set-watch-limit USER_ID N|default [--reason TEXT]
  admin set-live-limit USER_ID N|default [--reason TEXT]
  admin create-partner --name NAME --email OWNER_EMAIL [--quota N] [--reason TEXT]
  admin reset-factor --user USER_ID --email MEMBER_EMAIL [--reason TEXT]
  admin disable-user USER_ID [--reason TEXT]
  admin enable-user USER_ID [--reason TEXT]
  admin delete-user USER_ID [--confirm] [--reason TEXT]
  admin reseal-secrets
  admin reencrypt-webhook-secrets  (reseal-secrets' former name, still accepted)
  admin reseal-holder-data
  admin receipt-key
  admin canary acknowledge|rebaseline
  admin shape list
  admin shape acknowledge SHAPE
  admin activity verify --user USER_ID
  admin invite --user USER_ID --email ADDRESS --role owner|admin|developer|compliance|viewer
  admin invite-operator --email EMAIL [--name NAME] [--role operator|support]
  admin disable-operator --email EMAIL [--reason TEXT]
  admin enable-operator --email EMAIL [--reason TEXT]
  admin set-operator-role --email EMAIL --role operator|support [--reason TEXT]
  admin remove-operator --email EMAIL [--reason TEXT]`;

/** A register page's shape (pageShape in @lvs/register). */
const PAGE_SHAPE = /^[0-9a-f]{16}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
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

function parseWatchLimit(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 10_000_000) {
    throw new UsageError(`Watch limit must be a whole number of entries from 0 to 10000000, got "${text}"`);
  }
  return Number(text);
}

function parseLiveLimit(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 100_000) {
    throw new UsageError(`Live limit must be a whole number of live lookups from 1 to 100000, got "${text}"`);
  }
  return Number(text);
}

/** --email: an e-mail address, trimmed. */
function parseEmail(text: string | undefined): string {
  if (text === undefined || !looksLikeEmail(text.trim())) throw new UsageError('--email must be an e-mail address');
  return text.trim();
}

/** --reason: its text trimmed, absent when not given; refused when blank or too long. */
function parseReason(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const reason = text.trim();
  if (reason === '' || reason.length > REASON_MAX_LENGTH) throw new UsageError(`--reason must be 1 to ${REASON_MAX_LENGTH} characters`);
  return reason;
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

/** Parses the arguments of `npm run admin -- …` (or its alias `npm run admin -- …`); throws UsageError with a message for the operator. */
export function parseAdminCommand(argv: string[]): AdminCommand {
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
        confirm: { type: 'boolean' },
        test: { type: 'boolean' },
        reason: { type: 'string' },
        email: { type: 'string' },
        role: { type: 'string' },
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
  /** A change to a partner takes --reason and nothing else; the reason, when given. */
  const onlyReason = (): string | undefined => {
    const { reason, ...others } = values;
    if (Object.keys(others).length > 0) throw new UsageError(`"${command}" takes only --reason`);
    return parseReason(reason);
  };
  switch (command) {
    case 'create': {
      if (rest.length > 0) throw new UsageError('create takes no positional arguments');
      const name = values.name?.trim();
      if (!name) throw new UsageError('--name is required');
      if (values.user !== undefined && values.quota !== undefined) {
        throw new UsageError('--quota belongs to the user: with --user, use set-quota instead');
      }
      if (values.test === true && values.quota !== undefined) {
        throw new UsageError('--quota is the live plan; a test key has TEST_MODE_QUOTA: create the user first, or use set-quota');
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
        test: values.test === true,
        reason: parseReason(values.reason),
      };
    }
    case 'list':
      onlyCreateOptions();
      if (rest.length > 0) throw new UsageError('list takes no arguments');
      return { command };
    case 'revoke': {
      const reason = onlyReason();
      if (rest.length !== 1) throw new UsageError('revoke takes exactly one KEY_ID');
      return { command, keyId: parseUuid(rest[0], 'KEY_ID'), reason };
    }
    case 'set-quota': {
      const reason = onlyReason();
      const { userId, value } = userSetting(command, rest, 'unlimited', parseQuota);
      return { command, userId, quota: value, reason };
    }
    case 'set-rate-limit': {
      const reason = onlyReason();
      const { userId, value } = userSetting(command, rest, 'default', parseRate);
      return { command, userId, ratePerSecond: value, reason };
    }
    case 'set-watch-limit': {
      const reason = onlyReason();
      const { userId, value } = userSetting(command, rest, 'default', parseWatchLimit);
      return { command, userId, watchLimit: value, reason };
    }
    case 'set-live-limit': {
      const reason = onlyReason();
      const { userId, value } = userSetting(command, rest, 'default', parseLiveLimit);
      return { command, userId, liveLookupLimit: value, reason };
    }
    case 'create-partner': {
      const { name, email, quota, reason, ...others } = values;
      if (Object.keys(others).length > 0 || rest.length > 0) throw new UsageError('create-partner takes only --name, --email, --quota and --reason');
      const partnerName = name?.trim();
      if (!partnerName || partnerName.length > 200) throw new UsageError('--name is required, at most 200 characters');
      return {
        command,
        name: partnerName,
        email: parseEmail(email),
        quota: quota === undefined ? null : parseQuota(quota),
        reason: parseReason(reason),
      };
    }
    case 'reset-factor': {
      const { user, email, reason, ...others } = values;
      if (Object.keys(others).length > 0 || rest.length > 0) throw new UsageError('reset-factor takes only --user, --email and --reason');
      return { command, userId: parseUuid(user, '--user'), email: parseEmail(email), reason: parseReason(reason) };
    }
    case 'delete-user': {
      const { confirm, reason, ...others } = values;
      if (Object.keys(others).length > 0) throw new UsageError('delete-user takes only --confirm and --reason');
      if (rest.length !== 1) throw new UsageError('delete-user takes exactly one USER_ID');
      return { command, userId: parseUuid(rest[0], 'USER_ID'), confirmed: confirm === true, reason: parseReason(reason) };
    }
    case 'disable-user':
    case 'enable-user': {
      const reason = onlyReason();
      if (rest.length !== 1) throw new UsageError(`${command} takes exactly one USER_ID`);
      return { command, userId: parseUuid(rest[0], 'USER_ID'), reason };
    }
    case 'reseal-secrets':
    case 'reencrypt-webhook-secrets':
    case 'reseal-holder-data':
      onlyCreateOptions();
      if (rest.length > 0) throw new UsageError(`${command} takes no arguments`);
      // The former name stays for operators' scripts: it reseals every secret of the ring now, not webhooks' alone.
      return { command: command === 'reseal-holder-data' ? command : 'reseal-secrets' };
    case 'activity': {
      const { user, ...others } = values;
      if (Object.keys(others).length > 0) throw new UsageError('activity verify takes only --user');
      if (rest.length !== 1 || rest[0] !== 'verify') throw new UsageError('activity takes verify');
      return { command: 'activity-verify', userId: parseUuid(user, '--user') };
    }
    case 'invite': {
      const { user, email, role, ...others } = values;
      if (Object.keys(others).length > 0 || rest.length > 0) throw new UsageError('invite takes only --user, --email and --role');
      const userId = parseUuid(user, '--user');
      const address = parseEmail(email);
      if (!MEMBER_ROLES.includes(role as MemberRole)) throw new UsageError(`--role must be one of ${MEMBER_ROLES.join(', ')}`);
      return { command, userId, email: address, role: role as MemberRole };
    }
    case 'invite-operator': {
      const { email, name, role = 'operator', ...others } = values;
      if (Object.keys(others).length > 0) throw new UsageError('invite-operator takes only --email, --name and --role');
      if (rest.length > 0) throw new UsageError('invite-operator takes no positional arguments');
      const address = parseEmail(email);
      if (!(OPERATOR_ROLES as readonly string[]).includes(role)) throw new UsageError('--role must be operator or support');
      const displayName = name?.trim() || address;
      if (displayName.length > 100) throw new UsageError('--name must be at most 100 characters');
      return { command, email: address, name: displayName, role: role as OperatorRole };
    }
    case 'disable-operator':
    case 'enable-operator':
    case 'remove-operator': {
      const { email, reason, ...others } = values;
      if (Object.keys(others).length > 0 || rest.length > 0) throw new UsageError(`${command} takes only --email and --reason`);
      return { command, email: parseEmail(email), reason: parseReason(reason) };
    }
    case 'set-operator-role': {
      const { email, role, reason, ...others } = values;
      if (Object.keys(others).length > 0 || rest.length > 0) throw new UsageError('set-operator-role takes only --email, --role and --reason');
      const address = parseEmail(email);
      if (!(OPERATOR_ROLES as readonly string[]).includes(role ?? '')) throw new UsageError('--role must be operator or support');
      return { command, email: address, role: role as OperatorRole, reason: parseReason(reason) };
    }
    case 'receipt-key':
      onlyCreateOptions();
      if (rest.length > 0) throw new UsageError('receipt-key takes no arguments');
      return { command };
    case 'canary':
      onlyCreateOptions();
      if (rest.length !== 1 || (rest[0] !== 'acknowledge' && rest[0] !== 'rebaseline')) throw new UsageError('canary takes acknowledge or rebaseline');
      return { command, action: rest[0] };
    case 'shape':
      onlyCreateOptions();
      if (rest.length === 1 && rest[0] === 'list') return { command: 'shape-list' };
      if (rest.length === 2 && rest[0] === 'acknowledge') {
        if (!PAGE_SHAPE.test(rest[1])) throw new UsageError('SHAPE must be 16 hex digits, as the alert and `shape list` show it');
        return { command: 'shape-acknowledge', shape: rest[1] };
      }
      throw new UsageError('shape takes list, or acknowledge SHAPE');
    default:
      throw new UsageError(command ? `Unknown command "${command}"` : 'A command is required');
  }
}
