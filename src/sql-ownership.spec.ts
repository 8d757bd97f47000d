import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * Each table belongs to the module whose folder under src/ owns its SQL. No other module's SQL names it: they ask
 * the owner's exported service or repository, or use a fragment the owner exports (src/auth/users-sql.ts,
 * src/events/events-sql.ts). Commands that reach every module's rows (src/cli: the admin command, its delete-user) sit
 * above the modules and compose what each owner exports. Every table the migrations create must be listed here, so a new
 * table gets an owner.
 */
const OWNERS: Record<string, string> = {
  users: 'auth',
  api_keys: 'auth',
  quota_usage: 'quota',
  quota_charges: 'quota',
  batches: 'batches',
  batch_items: 'batches',
  events: 'events',
  licence_states: 'watchlist',
  watch_entries: 'watchlist',
  webhook_endpoints: 'webhooks',
  webhook_deliveries: 'webhooks',
  webhook_attempts: 'webhooks',
  verification_records: 'verification-records',
  test_licences: 'lookups',
  activity_events: 'activity',
  activity_chains: 'activity',
  members: 'members',
  member_sso: 'members',
  member_passkeys: 'members',
  operator_actions: 'operator-console',
  operators: 'operator-console',
  operator_passkeys: 'operator-console',
};

const SRC = __dirname;
const MIGRATIONS = join(SRC, 'database', 'migrations');

/**
 * The tables a text names in SQL (after FROM, JOIN, INTO, UPDATE, TABLE or REFERENCES), or as a quoted name with an
 * underscore (a name to build SQL with; a quoted plain word such as 'events' is more often an English one).
 */
function tablesNamed(text: string, tables: string[]): string[] {
  const named = new Set<string>();
  for (const match of text.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE|TABLE|REFERENCES)\s+([a-z_]+)\b/g)) named.add(match[1]);
  for (const match of text.matchAll(/['"`]([a-z]+_[a-z_]+)['"`]/g)) named.add(match[1]);
  return tables.filter((table) => named.has(table)).sort();
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === MIGRATIONS ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Each module file's tables owned by another module, as "file: table (owner)". */
function crossings(): Map<string, string[]> {
  const tables = Object.keys(OWNERS);
  const found = new Map<string, string[]>();
  for (const path of sourceFiles(SRC)) {
    const file = relative(SRC, path).split(sep).join('/');
    const module = file.slice(0, file.indexOf('/'));
    if (!file.includes('/') || module === 'cli') continue; // the roots and the commands compose the modules
    const foreign = tablesNamed(readFileSync(path, 'utf8'), tables).filter((table) => OWNERS[table] !== module);
    if (foreign.length > 0) found.set(file, foreign);
  }
  return found;
}

describe('SQL between the modules of src/', () => {
  const found = crossings();

  it('gives every table the migrations create an owner', () => {
    const created = readdirSync(MIGRATIONS).flatMap((name) =>
      [...readFileSync(join(MIGRATIONS, name), 'utf8').matchAll(/CREATE TABLE (?:IF NOT EXISTS )?"?([a-z_]+)/g)].map((match) => match[1]),
    );
    expect([...new Set(created)].sort()).toEqual(Object.keys(OWNERS).sort());
  });

  it('finds the SQL it checks (a reader that found none would pass anything)', () => {
    const tables = Object.keys(OWNERS);
    const watchlist = tablesNamed(readFileSync(join(SRC, 'watchlist', 'watchlist.repository.ts'), 'utf8'), tables);
    expect(watchlist).toEqual(['licence_states', 'watch_entries']);
    expect(tablesNamed(readFileSync(join(SRC, 'auth', 'users-sql.ts'), 'utf8'), tables)).toEqual(['api_keys', 'users']);
  });

  it("lets no module's SQL name another module's table", () => {
    expect([...found].map(([file, tables]) => `${file}: ${tables.map((table) => `${table} (${OWNERS[table]})`).join(', ')}`)).toEqual([]);
  });
});

describe('tablesNamed', () => {
  const tables = ['users', 'watch_entries', 'events'];

  it('finds tables after the SQL keywords that name one', () => {
    expect(tablesNamed('SELECT 1 FROM watch_entries w JOIN users u ON u.id = w.user_id', tables)).toEqual(['users', 'watch_entries']);
    expect(tablesNamed('INSERT INTO events (id) VALUES ($1)', tables)).toEqual(['events']);
    expect(tablesNamed('UPDATE users SET x = 1', tables)).toEqual(['users']);
  });

  it('finds a table named in a quoted string', () => {
    expect(tablesNamed(`const SEALED = [{ table: 'watch_entries' }];`, tables)).toEqual(['watch_entries']);
  });

  it('ignores words that only look like table names', () => {
    expect(tablesNamed(`// the users of the watch list; SELECT user_id FROM watch_entry_view; kind: 'events'`, tables)).toEqual([]);
  });
});
