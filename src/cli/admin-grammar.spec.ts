import { ADMIN_USAGE, AdminCommand, parseAdminCommand, UsageError } from './admin-grammar';

const USER_ID = '0b6f8e0a-3c1d-4e2f-9a8b-7c6d5e4f3a2b';
const KEY_ID = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';

/** The command with its Date written as ISO text, so that it compares exactly. */
function comparable(command: AdminCommand): Record<string, unknown> {
  if (command.command !== 'create') return { ...command };
  return { ...command, expiresAt: command.expiresAt === null ? null : command.expiresAt.toISOString() };
}

/** The UsageError parseAdminCommand throws, so that both its class and message can be checked. */
function usageErrorOf(argv: string[]): UsageError {
  try {
    parseAdminCommand(argv);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error(`parseAdminCommand(${JSON.stringify(argv)}) did not throw`);
}

describe('ADMIN_USAGE', () => {
  const lines = ADMIN_USAGE.split('\n').slice(1);

  it('names the command admin on every line, one line for each command the grammar parses', () => {
    expect(lines.every((line) => line.startsWith('  admin '))).toBe(true);
    expect([...new Set(lines.map((line) => line.split(' ')[3]))]).toEqual([
      'create',
      'list',
      'revoke',
      'set-quota',
      'set-rate-limit',
      'set-watch-limit',
      'set-live-limit',
      'create-partner',
      'reset-factor',
      'disable-user',
      'enable-user',
      'delete-user',
      'reseal-secrets',
      'reencrypt-webhook-secrets',
      'reseal-holder-data',
      'receipt-key',
      'canary',
      'shape',
      'activity',
      'invite',
      'invite-operator',
      'disable-operator',
      'enable-operator',
      'set-operator-role',
      'remove-operator',
    ]);
  });

  it('lists no command the grammar does not know', () => {
    for (const line of lines) {
      const argv = line.trim().split(' ').slice(1, 2);
      expect(() => parseAdminCommand(argv)).not.toThrow(`Unknown command "${argv[0]}"`);
    }
  });
});

describe('parseAdminCommand', () => {
  describe('create', () => {
    it('parses create with only --name', () => {
      expect(comparable(parseAdminCommand(['create', '--name', 'Acme Security']))).toEqual({
        command: 'create',
        name: 'Acme Security',
        quota: null,
        expiresAt: null,
        userId: null,
        test: false,
      });
    });

    it('parses create with --name, --quota and --expires-at', () => {
      expect(comparable(parseAdminCommand(['create', '--name', 'Acme', '--quota', '1000', '--expires-at', '2027-01-01T00:00:00Z']))).toEqual({
        command: 'create',
        name: 'Acme',
        quota: 1000,
        expiresAt: '2027-01-01T00:00:00.000Z',
        userId: null,
        test: false,
      });
    });

    it('parses --option=value forms', () => {
      expect(comparable(parseAdminCommand(['create', '--name=Acme', '--quota=5']))).toEqual({
        command: 'create',
        name: 'Acme',
        quota: 5,
        expiresAt: null,
        userId: null,
        test: false,
      });
    });

    it('parses create --test, for a new user or with --user', () => {
      expect(comparable(parseAdminCommand(['create', '--name', 'Acme', '--test']))).toEqual({
        command: 'create',
        name: 'Acme',
        quota: null,
        expiresAt: null,
        userId: null,
        test: true,
      });
      expect(comparable(parseAdminCommand(['create', '--name', 'CI', '--test', '--user', USER_ID]))).toEqual({
        command: 'create',
        name: 'CI',
        quota: null,
        expiresAt: null,
        userId: USER_ID,
        test: true,
      });
    });

    it('parses create with --user and lower-cases the UUID', () => {
      expect(comparable(parseAdminCommand(['create', '--name', 'Second key', '--user', USER_ID.toUpperCase()]))).toEqual({
        command: 'create',
        name: 'Second key',
        quota: null,
        expiresAt: null,
        userId: USER_ID,
        test: false,
      });
    });

    it('trims the name', () => {
      expect(comparable(parseAdminCommand(['create', '--name', '  Acme  ']))).toEqual({
        command: 'create',
        name: 'Acme',
        quota: null,
        expiresAt: null,
        userId: null,
        test: false,
      });
    });

    it('allows --quota 0', () => {
      expect(comparable(parseAdminCommand(['create', '--name', 'Acme', '--quota', '0']))).toEqual({
        command: 'create',
        name: 'Acme',
        quota: 0,
        expiresAt: null,
        userId: null,
        test: false,
      });
    });

    it('allows the largest quota, 2147483647', () => {
      expect(comparable(parseAdminCommand(['create', '--name', 'Acme', '--quota', '2147483647']))).toEqual({
        command: 'create',
        name: 'Acme',
        quota: 2147483647,
        expiresAt: null,
        userId: null,
        test: false,
      });
    });

    it('reads a date-only --expires-at as midnight UTC', () => {
      expect(comparable(parseAdminCommand(['create', '--name', 'Acme', '--expires-at', '2027-06-30']))).toEqual({
        command: 'create',
        name: 'Acme',
        quota: null,
        expiresAt: '2027-06-30T00:00:00.000Z',
        userId: null,
        test: false,
      });
    });

    it('reads an --expires-at with an offset', () => {
      expect(comparable(parseAdminCommand(['create', '--name', 'Acme', '--expires-at', '2027-06-30T12:30:00+01:00']))).toEqual({
        command: 'create',
        name: 'Acme',
        quota: null,
        expiresAt: '2027-06-30T11:30:00.000Z',
        userId: null,
        test: false,
      });
    });

    it('accepts 29 February in a leap year', () => {
      const command = parseAdminCommand(['create', '--name', 'Acme', '--expires-at', '2028-02-29']);
      expect(command.command === 'create' && command.expiresAt?.toISOString()).toBe('2028-02-29T00:00:00.000Z');
    });

    it('returns a Date for --expires-at', () => {
      const command = parseAdminCommand(['create', '--name', 'Acme', '--expires-at', '2027-06-30']);
      expect(command.command === 'create' && command.expiresAt instanceof Date).toBe(true);
    });
  });

  describe('list', () => {
    it('parses list', () => {
      expect(parseAdminCommand(['list'])).toEqual({ command: 'list' });
    });
  });

  describe('revoke', () => {
    it('parses revoke KEY_ID', () => {
      expect(parseAdminCommand(['revoke', KEY_ID])).toEqual({ command: 'revoke', keyId: KEY_ID });
    });

    it('lower-cases the KEY_ID', () => {
      expect(parseAdminCommand(['revoke', KEY_ID.toUpperCase()])).toEqual({ command: 'revoke', keyId: KEY_ID });
    });
  });

  describe('delete-user', () => {
    it('parses delete-user USER_ID, confirmed only with --confirm', () => {
      expect(parseAdminCommand(['delete-user', USER_ID])).toEqual({ command: 'delete-user', userId: USER_ID, confirmed: false });
      expect(parseAdminCommand(['delete-user', USER_ID, '--confirm'])).toEqual({ command: 'delete-user', userId: USER_ID, confirmed: true });
      expect(parseAdminCommand(['delete-user', '--confirm', USER_ID.toUpperCase()])).toEqual({ command: 'delete-user', userId: USER_ID, confirmed: true });
    });

    it('refuses anything but one USER_ID and --confirm', () => {
      expect(() => parseAdminCommand(['delete-user'])).toThrow(new UsageError('delete-user takes exactly one USER_ID'));
      expect(() => parseAdminCommand(['delete-user', USER_ID, USER_ID])).toThrow(new UsageError('delete-user takes exactly one USER_ID'));
      expect(() => parseAdminCommand(['delete-user', 'someone', '--confirm'])).toThrow(new UsageError('USER_ID must be a UUID'));
      expect(() => parseAdminCommand(['delete-user', USER_ID, '--name', 'x'])).toThrow(new UsageError('delete-user takes only --confirm and --reason'));
      expect(() => parseAdminCommand(['delete-user', USER_ID, '--confirm=yes'])).toThrow(UsageError);
    });

    it('refuses --confirm on any other command', () => {
      expect(() => parseAdminCommand(['disable-user', USER_ID, '--confirm'])).toThrow(new UsageError('"disable-user" takes only --reason'));
    });
  });

  describe.each([
    ['reseal-secrets', 'reseal-secrets'],
    ['reencrypt-webhook-secrets', 'reseal-secrets'],
    ['reseal-holder-data', 'reseal-holder-data'],
  ])('%s', (command, parsed) => {
    it(`parses ${command} as ${parsed}, which takes nothing else`, () => {
      expect(parseAdminCommand([command])).toEqual({ command: parsed });
      expect(() => parseAdminCommand([command, 'now'])).toThrow(new UsageError(`${command} takes no arguments`));
      expect(() => parseAdminCommand([command, '--name', 'x'])).toThrow(new UsageError(`"${command}" takes no options`));
    });
  });

  describe('canary', () => {
    it('parses canary acknowledge and canary rebaseline, and nothing else', () => {
      expect(parseAdminCommand(['canary', 'acknowledge'])).toEqual({ command: 'canary', action: 'acknowledge' });
      expect(parseAdminCommand(['canary', 'rebaseline'])).toEqual({ command: 'canary', action: 'rebaseline' });
      for (const args of [['canary'], ['canary', 'reset'], ['canary', 'acknowledge', 'now']]) {
        expect(() => parseAdminCommand(args)).toThrow(new UsageError('canary takes acknowledge or rebaseline'));
      }
      expect(() => parseAdminCommand(['canary', 'acknowledge', '--test'])).toThrow(new UsageError('"canary" takes no options'));
    });
  });

  describe('shape', () => {
    it('parses shape list and shape acknowledge SHAPE, and nothing else', () => {
      expect(parseAdminCommand(['shape', 'list'])).toEqual({ command: 'shape-list' });
      expect(parseAdminCommand(['shape', 'acknowledge', '0123456789abcdef'])).toEqual({ command: 'shape-acknowledge', shape: '0123456789abcdef' });
      for (const args of [['shape'], ['shape', 'acknowledge'], ['shape', 'list', 'all'], ['shape', 'forget', '0123456789abcdef']]) {
        expect(() => parseAdminCommand(args)).toThrow(new UsageError('shape takes list, or acknowledge SHAPE'));
      }
      for (const shape of ['0123456789ABCDEF', '0123456789abcde', 'all']) {
        expect(() => parseAdminCommand(['shape', 'acknowledge', shape])).toThrow(
          new UsageError('SHAPE must be 16 hex digits, as the alert and `shape list` show it'),
        );
      }
      expect(() => parseAdminCommand(['shape', 'list', '--test'])).toThrow(new UsageError('"shape" takes no options'));
    });
  });

  describe('receipt-key', () => {
    it('parses receipt-key, which takes nothing else', () => {
      expect(parseAdminCommand(['receipt-key'])).toEqual({ command: 'receipt-key' });
      expect(() => parseAdminCommand(['receipt-key', 'now'])).toThrow(new UsageError('receipt-key takes no arguments'));
      expect(() => parseAdminCommand(['receipt-key', '--name', 'x'])).toThrow(new UsageError('"receipt-key" takes no options'));
    });
  });

  describe('activity verify', () => {
    it('parses activity verify --user USER_ID, and refuses anything else', () => {
      expect(parseAdminCommand(['activity', 'verify', '--user', USER_ID.toUpperCase()])).toEqual({ command: 'activity-verify', userId: USER_ID });
      expect(() => parseAdminCommand(['activity', 'verify'])).toThrow(new UsageError('--user must be a UUID'));
      expect(() => parseAdminCommand(['activity', 'list', '--user', USER_ID])).toThrow(new UsageError('activity takes verify'));
      expect(() => parseAdminCommand(['activity', 'verify', '--user', USER_ID, '--confirm'])).toThrow(new UsageError('activity verify takes only --user'));
    });
  });

  describe('invite', () => {
    it('parses invite --user USER_ID --email ADDRESS --role ROLE', () => {
      expect(parseAdminCommand(['invite', '--user', USER_ID, '--email', ' Jane@Acme.example ', '--role', 'owner'])).toEqual({
        command: 'invite',
        userId: USER_ID,
        email: 'Jane@Acme.example',
        role: 'owner',
      });
    });

    it('refuses a missing or bad user, address or role, and anything else', () => {
      expect(() => parseAdminCommand(['invite', '--email', 'a@b.cd', '--role', 'owner'])).toThrow(new UsageError('--user must be a UUID'));
      expect(() => parseAdminCommand(['invite', '--user', USER_ID, '--email', 'nobody', '--role', 'owner'])).toThrow(
        new UsageError('--email must be an e-mail address'),
      );
      expect(() => parseAdminCommand(['invite', '--user', USER_ID, '--email', 'a@b.cd', '--role', 'boss'])).toThrow(
        new UsageError('--role must be one of owner, admin, developer, compliance, viewer'),
      );
      expect(() => parseAdminCommand(['invite', '--user', USER_ID, '--email', 'a@b.cd', '--role', 'owner', '--test'])).toThrow(
        new UsageError('invite takes only --user, --email and --role'),
      );
    });
  });

  describe('invite-operator', () => {
    it('parses the e-mail address, the name (the address when not given) and the role (operator when not given)', () => {
      expect(parseAdminCommand(['invite-operator', '--email', ' ana@example.org '])).toEqual({
        command: 'invite-operator',
        email: 'ana@example.org',
        name: 'ana@example.org',
        role: 'operator',
      });
      expect(parseAdminCommand(['invite-operator', '--email', 'sam@example.org', '--name', 'Sam Lee', '--role', 'support'])).toEqual({
        command: 'invite-operator',
        email: 'sam@example.org',
        name: 'Sam Lee',
        role: 'support',
      });
    });

    it('refuses a missing or malformed address, another role, and other options', () => {
      expect(() => parseAdminCommand(['invite-operator'])).toThrow(new UsageError('--email must be an e-mail address'));
      expect(() => parseAdminCommand(['invite-operator', '--email', 'ana'])).toThrow(new UsageError('--email must be an e-mail address'));
      expect(() => parseAdminCommand(['invite-operator', '--email', 'a@b.org', '--role', 'admin'])).toThrow(
        new UsageError('--role must be operator or support'),
      );
      expect(() => parseAdminCommand(['invite-operator', '--email', 'a@b.org', '--user', USER_ID])).toThrow(
        new UsageError('invite-operator takes only --email, --name and --role'),
      );
    });
  });

  describe.each(['disable-operator', 'enable-operator', 'remove-operator'] as const)('%s', (command) => {
    it(`parses ${command} --email, with or without --reason`, () => {
      expect(parseAdminCommand([command, '--email', ' ana@example.org '])).toEqual({ command, email: 'ana@example.org', reason: undefined });
      expect(parseAdminCommand([command, '--email', 'ana@example.org', '--reason', ' Left the team '])).toEqual({
        command,
        email: 'ana@example.org',
        reason: 'Left the team',
      });
    });

    it('refuses a missing address, a blank reason, a positional argument and other options', () => {
      expect(() => parseAdminCommand([command])).toThrow(new UsageError('--email must be an e-mail address'));
      expect(() => parseAdminCommand([command, '--email', 'a@b.org', '--reason', ' '])).toThrow(new UsageError('--reason must be 1 to 500 characters'));
      expect(() => parseAdminCommand([command, 'a@b.org'])).toThrow(new UsageError(`${command} takes only --email and --reason`));
      expect(() => parseAdminCommand([command, '--email', 'a@b.org', '--role', 'support'])).toThrow(
        new UsageError(`${command} takes only --email and --reason`),
      );
    });
  });

  describe('set-operator-role', () => {
    it('parses the address, the role and the reason', () => {
      expect(parseAdminCommand(['set-operator-role', '--email', 'sam@example.org', '--role', 'support', '--reason', 'Moved to support'])).toEqual({
        command: 'set-operator-role',
        email: 'sam@example.org',
        role: 'support',
        reason: 'Moved to support',
      });
    });

    it('refuses a missing or unknown role and other options', () => {
      expect(() => parseAdminCommand(['set-operator-role', '--email', 'sam@example.org'])).toThrow(new UsageError('--role must be operator or support'));
      expect(() => parseAdminCommand(['set-operator-role', '--email', 'sam@example.org', '--role', 'owner'])).toThrow(
        new UsageError('--role must be operator or support'),
      );
      expect(() => parseAdminCommand(['set-operator-role', '--email', 'sam@example.org', '--role', 'support', '--name', 'x'])).toThrow(
        new UsageError('set-operator-role takes only --email, --role and --reason'),
      );
    });
  });

  describe('set-quota', () => {
    it('parses set-quota USER_ID N', () => {
      expect(parseAdminCommand(['set-quota', USER_ID, '250'])).toEqual({
        command: 'set-quota',
        userId: USER_ID,
        quota: 250,
      });
    });

    it('parses set-quota USER_ID 0', () => {
      expect(parseAdminCommand(['set-quota', USER_ID, '0'])).toEqual({ command: 'set-quota', userId: USER_ID, quota: 0 });
    });

    it('parses set-quota USER_ID unlimited as quota null', () => {
      expect(parseAdminCommand(['set-quota', USER_ID, 'unlimited'])).toEqual({
        command: 'set-quota',
        userId: USER_ID,
        quota: null,
      });
    });
  });

  describe('set-rate-limit', () => {
    it('parses set-rate-limit USER_ID N', () => {
      expect(parseAdminCommand(['set-rate-limit', USER_ID, '2'])).toEqual({ command: 'set-rate-limit', userId: USER_ID, ratePerSecond: 2 });
    });

    it('parses set-rate-limit USER_ID default as ratePerSecond null', () => {
      expect(parseAdminCommand(['set-rate-limit', USER_ID, 'default'])).toEqual({ command: 'set-rate-limit', userId: USER_ID, ratePerSecond: null });
    });

    it.each(['0', '1.5', 'unlimited', '1000001'])('refuses the rate %j', (rate) => {
      expect(usageErrorOf(['set-rate-limit', USER_ID, rate]).message).toBe(
        `Rate must be a whole number of requests per second from 1 to 1000000, got "${rate}"`,
      );
    });

    it('refuses a missing rate', () => {
      expect(usageErrorOf(['set-rate-limit', USER_ID]).message).toBe('set-rate-limit takes USER_ID and N|default');
    });
  });

  describe('set-watch-limit', () => {
    it('parses set-watch-limit USER_ID N, 0 included', () => {
      expect(parseAdminCommand(['set-watch-limit', USER_ID, '20000'])).toEqual({ command: 'set-watch-limit', userId: USER_ID, watchLimit: 20000 });
      expect(parseAdminCommand(['set-watch-limit', USER_ID, '0'])).toEqual({ command: 'set-watch-limit', userId: USER_ID, watchLimit: 0 });
    });

    it('parses set-watch-limit USER_ID default as watchLimit null', () => {
      expect(parseAdminCommand(['set-watch-limit', USER_ID, 'default'])).toEqual({ command: 'set-watch-limit', userId: USER_ID, watchLimit: null });
    });

    it.each(['1.5', 'unlimited', '10000001', ''])('refuses the limit %j', (limit) => {
      expect(usageErrorOf(['set-watch-limit', USER_ID, limit]).message).toBe(
        `Watch limit must be a whole number of entries from 0 to 10000000, got "${limit}"`,
      );
    });

    it('refuses a missing limit and a USER_ID that is not a UUID', () => {
      expect(usageErrorOf(['set-watch-limit', USER_ID]).message).toBe('set-watch-limit takes USER_ID and N|default');
      expect(usageErrorOf(['set-watch-limit', 'bob', '5']).message).toBe('USER_ID must be a UUID');
    });
  });

  describe('set-live-limit', () => {
    it('parses set-live-limit USER_ID N, and default as null', () => {
      expect(parseAdminCommand(['set-live-limit', USER_ID, '1'])).toEqual({ command: 'set-live-limit', userId: USER_ID, liveLookupLimit: 1 });
      expect(parseAdminCommand(['set-live-limit', USER_ID, 'default', '--reason', 'Back to normal'])).toEqual({
        command: 'set-live-limit',
        userId: USER_ID,
        liveLookupLimit: null,
        reason: 'Back to normal',
      });
    });

    it.each(['0', '1.5', 'unlimited', '100001', ''])('refuses the limit %j', (limit) => {
      expect(usageErrorOf(['set-live-limit', USER_ID, limit]).message).toBe(
        `Live limit must be a whole number of live lookups from 1 to 100000, got "${limit}"`,
      );
    });
  });

  describe('create-partner', () => {
    it('parses the name, the owner’s address, the plan and the reason', () => {
      expect(
        parseAdminCommand(['create-partner', '--name', ' Acme ', '--email', 'Owner@Acme.example', '--quota', '500', '--reason', 'Signed, ticket 9']),
      ).toEqual({ command: 'create-partner', name: 'Acme', email: 'Owner@Acme.example', quota: 500, reason: 'Signed, ticket 9' });
      expect(parseAdminCommand(['create-partner', '--name', 'Acme', '--email', 'owner@acme.example'])).toEqual({
        command: 'create-partner',
        name: 'Acme',
        email: 'owner@acme.example',
        quota: null,
        reason: undefined,
      });
    });

    it('refuses a missing name or address, and other options', () => {
      expect(usageErrorOf(['create-partner', '--email', 'owner@acme.example']).message).toBe('--name is required, at most 200 characters');
      expect(usageErrorOf(['create-partner', '--name', 'Acme', '--email', 'nobody']).message).toBe('--email must be an e-mail address');
      expect(usageErrorOf(['create-partner', '--name', 'Acme', '--email', 'o@a.example', '--user', USER_ID]).message).toBe(
        'create-partner takes only --name, --email, --quota and --reason',
      );
    });
  });

  describe('reset-factor', () => {
    it('parses the partner and the member’s address', () => {
      expect(parseAdminCommand(['reset-factor', '--user', USER_ID, '--email', 'ana@acme.example', '--reason', 'Lost phone'])).toEqual({
        command: 'reset-factor',
        userId: USER_ID,
        email: 'ana@acme.example',
        reason: 'Lost phone',
      });
    });

    it('refuses a missing member or partner', () => {
      expect(usageErrorOf(['reset-factor', '--user', USER_ID]).message).toBe('--email must be an e-mail address');
      expect(usageErrorOf(['reset-factor', '--email', 'ana@acme.example']).message).toBe('--user must be a UUID');
      expect(usageErrorOf(['reset-factor', USER_ID, '--email', 'ana@acme.example']).message).toBe('reset-factor takes only --user, --email and --reason');
    });
  });

  describe.each(['disable-user', 'enable-user'] as const)('%s', (command) => {
    it(`parses ${command} USER_ID and lower-cases the UUID`, () => {
      expect(parseAdminCommand([command, USER_ID.toUpperCase()])).toEqual({ command, userId: USER_ID });
    });
  });

  describe('--reason', () => {
    it('is taken, trimmed, by every change to a partner, and absent when not given', () => {
      const reason = ['--reason', '  Plan upgraded, ticket 4411 '];
      const given = { reason: 'Plan upgraded, ticket 4411' };
      expect(parseAdminCommand(['set-quota', USER_ID, '250', ...reason])).toStrictEqual({ command: 'set-quota', userId: USER_ID, quota: 250, ...given });
      expect(parseAdminCommand(['set-rate-limit', USER_ID, 'default', ...reason])).toStrictEqual({
        command: 'set-rate-limit',
        userId: USER_ID,
        ratePerSecond: null,
        ...given,
      });
      expect(parseAdminCommand(['set-watch-limit', USER_ID, '9', ...reason])).toStrictEqual({
        command: 'set-watch-limit',
        userId: USER_ID,
        watchLimit: 9,
        ...given,
      });
      expect(parseAdminCommand(['disable-user', USER_ID, ...reason])).toStrictEqual({ command: 'disable-user', userId: USER_ID, ...given });
      expect(parseAdminCommand(['revoke', KEY_ID, ...reason])).toStrictEqual({ command: 'revoke', keyId: KEY_ID, ...given });
      expect(parseAdminCommand(['delete-user', USER_ID, '--confirm', ...reason])).toStrictEqual({
        command: 'delete-user',
        userId: USER_ID,
        confirmed: true,
        ...given,
      });
      expect(parseAdminCommand(['set-quota', USER_ID, '250'])).toStrictEqual({ command: 'set-quota', userId: USER_ID, quota: 250, reason: undefined });
    });

    it('is refused by a command that changes no partner', () => {
      expect(() => parseAdminCommand(['list', '--reason', 'x'])).toThrow(new UsageError('"list" takes no options'));
    });
  });

  describe('usage errors', () => {
    it('throws UsageError, a subclass of Error', () => {
      expect(() => parseAdminCommand([])).toThrow(UsageError);
      expect(usageErrorOf([])).toBeInstanceOf(Error);
    });

    it.each<[string, string[], string]>([
      ['no command', [], 'A command is required'],
      ['an unknown command', ['delete', KEY_ID], 'Unknown command "delete"'],
      ['create without --name', ['create'], '--name is required'],
      ['create without --name but with --quota', ['create', '--quota', '5'], '--name is required'],
      ['create with an empty --name', ['create', '--name', ''], '--name is required'],
      ['create with a blank --name', ['create', '--name', '   '], '--name is required'],
      [
        'create --test with --quota',
        ['create', '--name', 'Acme', '--test', '--quota', '5'],
        '--quota is the live plan; a test key has TEST_MODE_QUOTA: create the user first, or use set-quota',
      ],
      ['create with --quota=-1', ['create', '--name', 'Acme', '--quota=-1'], 'Quota must be a whole number from 0 to 2147483647, got "-1"'],
      ['create with --quota 1.5', ['create', '--name', 'Acme', '--quota', '1.5'], 'Quota must be a whole number from 0 to 2147483647, got "1.5"'],
      ['create with --quota abc', ['create', '--name', 'Acme', '--quota', 'abc'], 'Quota must be a whole number from 0 to 2147483647, got "abc"'],
      [
        'create with --quota 2147483648',
        ['create', '--name', 'Acme', '--quota', '2147483648'],
        'Quota must be a whole number from 0 to 2147483647, got "2147483648"',
      ],
      ['create with an empty --quota', ['create', '--name', 'Acme', '--quota', ''], 'Quota must be a whole number from 0 to 2147483647, got ""'],
      ['create with --quota 1e3', ['create', '--name', 'Acme', '--quota', '1e3'], 'Quota must be a whole number from 0 to 2147483647, got "1e3"'],
      [
        'create with both --quota and --user',
        ['create', '--name', 'Acme', '--quota', '5', '--user', USER_ID],
        '--quota belongs to the user: with --user, use set-quota instead',
      ],
      [
        'create with --expires-at tomorrow',
        ['create', '--name', 'Acme', '--expires-at', 'tomorrow'],
        '--expires-at must be an ISO-8601 date, or date and time with a zone, got "tomorrow"',
      ],
      [
        'create with --expires-at 2026-13-01',
        ['create', '--name', 'Acme', '--expires-at', '2026-13-01'],
        '--expires-at must be an ISO-8601 date, or date and time with a zone, got "2026-13-01"',
      ],
      [
        'create with --expires-at 2026-02-30 (no such day)',
        ['create', '--name', 'Acme', '--expires-at', '2026-02-30'],
        '--expires-at must be an ISO-8601 date, or date and time with a zone, got "2026-02-30"',
      ],
      [
        'create with --expires-at 2026-04-31 (no such day)',
        ['create', '--name', 'Acme', '--expires-at', '2026-04-31'],
        '--expires-at must be an ISO-8601 date, or date and time with a zone, got "2026-04-31"',
      ],
      [
        'create with --expires-at a time without a zone',
        ['create', '--name', 'Acme', '--expires-at', '2027-06-30T12:00'],
        '--expires-at must be an ISO-8601 date, or date and time with a zone, got "2027-06-30T12:00"',
      ],
      [
        'create with --expires-at in a non-ISO format',
        ['create', '--name', 'Acme', '--expires-at', '01/06/2027'],
        '--expires-at must be an ISO-8601 date, or date and time with a zone, got "01/06/2027"',
      ],
      ['create with a --user that is not a UUID', ['create', '--name', 'Acme', '--user', 'not-a-uuid'], '--user must be a UUID'],
      ['create with a --user UUID one digit short', ['create', '--name', 'Acme', '--user', USER_ID.slice(0, -1)], '--user must be a UUID'],
      ['create with a positional argument', ['create', 'extra', '--name', 'Acme'], 'create takes no positional arguments'],
      ['list with an argument', ['list', 'extra'], 'list takes no arguments'],
      ['list with an option', ['list', '--name', 'Acme'], '"list" takes no options'],
      ['revoke without KEY_ID', ['revoke'], 'revoke takes exactly one KEY_ID'],
      ['revoke with two KEY_IDs', ['revoke', KEY_ID, KEY_ID], 'revoke takes exactly one KEY_ID'],
      ['revoke with a KEY_ID that is not a UUID', ['revoke', '42'], 'KEY_ID must be a UUID'],
      ['revoke with a UUID with braces', ['revoke', `{${KEY_ID}}`], 'KEY_ID must be a UUID'],
      ['revoke with an option', ['revoke', KEY_ID, '--quota', '5'], '"revoke" takes only --reason'],
      ['set-quota without a quota', ['set-quota', USER_ID], 'set-quota takes USER_ID and N|unlimited'],
      ['set-quota with an extra argument', ['set-quota', USER_ID, '5', '6'], 'set-quota takes USER_ID and N|unlimited'],
      ['set-quota with a USER_ID that is not a UUID', ['set-quota', 'bob', '5'], 'USER_ID must be a UUID'],
      ['set-quota with a bad quota', ['set-quota', USER_ID, 'lots'], 'Quota must be a whole number from 0 to 2147483647, got "lots"'],
      ['set-quota with quota 2147483648', ['set-quota', USER_ID, '2147483648'], 'Quota must be a whole number from 0 to 2147483647, got "2147483648"'],
      ['set-quota with an option', ['set-quota', USER_ID, '5', '--user', USER_ID], '"set-quota" takes only --reason'],
      ['set-quota with a blank reason', ['set-quota', USER_ID, '5', '--reason', '  '], '--reason must be 1 to 500 characters'],
      ['set-quota with a reason of 501 characters', ['set-quota', USER_ID, '5', '--reason', 'x'.repeat(501)], '--reason must be 1 to 500 characters'],
      ['disable-user without USER_ID', ['disable-user'], 'disable-user takes exactly one USER_ID'],
      ['disable-user with two USER_IDs', ['disable-user', USER_ID, USER_ID], 'disable-user takes exactly one USER_ID'],
      ['disable-user with a USER_ID that is not a UUID', ['disable-user', 'bob'], 'USER_ID must be a UUID'],
      ['disable-user with an option', ['disable-user', USER_ID, '--name', 'x'], '"disable-user" takes only --reason'],
      ['enable-user without USER_ID', ['enable-user'], 'enable-user takes exactly one USER_ID'],
      ['enable-user with a USER_ID that is not a UUID', ['enable-user', '42'], 'USER_ID must be a UUID'],
    ])('rejects %s', (_what, argv, message) => {
      const error = usageErrorOf(argv);
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).toBe(message);
    });

    it('rejects an ambiguous --quota -1 (value starting with a dash) with a UsageError', () => {
      expect(usageErrorOf(['create', '--name', 'Acme', '--quota', '-1']).message).toBe(
        "Option '--quota' argument is ambiguous.\n" +
          "Did you forget to specify the option argument for '--quota'?\n" +
          "To specify an option argument starting with a dash use '--quota=-XYZ'.",
      );
    });

    it('rejects set-quota with a negative quota -1 (read as an option) with a UsageError', () => {
      expect(() => parseAdminCommand(['set-quota', USER_ID, '-1'])).toThrow(UsageError);
    });

    it('rejects an unknown option --foo with a UsageError naming it', () => {
      expect(() => parseAdminCommand(['create', '--name', 'Acme', '--foo'])).toThrow(
        new UsageError(
          "Unknown option '--foo'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- \"--foo\"",
        ),
      );
    });

    it('rejects an option without its value with a UsageError', () => {
      expect(() => parseAdminCommand(['create', '--name'])).toThrow(UsageError);
    });
  });
});
