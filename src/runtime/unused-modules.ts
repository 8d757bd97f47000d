import Module from 'node:module';

/**
 * Modules of our dependencies that no process of ours ever runs. TypeORM's DriverFactory requires the driver of
 * every database it supports and BullMQ's index every queue backend and Redis client, though each picks one by its
 * options at run time; we use PostgreSQL and ioredis. V8 keeps the source of every module it loads (for lazy
 * compilation), and with what these require in turn that was about 5 MiB of each process's peak.
 */
const UNUSED_MODULES = new RegExp(
  [
    String.raw`/node_modules/typeorm/driver/(aurora-mysql|aurora-postgres|better-sqlite3|capacitor|cockroachdb|cordova|expo|mongodb|mysql|nativescript|oracle|react-native|sap|spanner|sqljs|sqlserver)/\w+Driver\.js$`,
    String.raw`/node_modules/typeorm/entity-manager/(Mongo|Sqljs)EntityManager\.js$`,
    String.raw`/node_modules/typeorm/repository/MongoRepository\.js$`,
    String.raw`/node_modules/bullmq/dist/cjs/postgres/index\.js$`,
    String.raw`/node_modules/bullmq/dist/cjs/classes/(node-redis|bun-redis|valkey-glide)-client\.js$`,
  ].join('|'),
);

/** Only modules of these packages require the ones above; other requires are not looked at. */
const REQUIRING_PACKAGES = /\/node_modules\/(typeorm|bullmq)\//;

export function isUnusedModule(filename: string): boolean {
  return UNUSED_MODULES.test(filename);
}

/**
 * What a require of an unused module returns: each export is a function that says so if it is ever called or
 * constructed. Our dependencies only name these exports in branches for other databases and clients (`new
 * MysqlDriver(...)` when the type is "mysql"), and an `instanceof` against one is false, as it would be anyway.
 */
export function unusedModuleStandIn(filename: string): object {
  const notLoaded = function notLoaded(): never {
    throw new Error(`${filename} is not loaded: this service uses PostgreSQL and ioredis only`);
  };
  return new Proxy(
    {},
    {
      get: (_exports, name) => (name === '__esModule' ? true : typeof name === 'string' && name !== 'then' ? notLoaded : undefined),
    },
  );
}

type LoadModule = (request: string, parent: { filename?: string } | undefined, isMain: boolean) => unknown;

/**
 * Answers requires of the unused modules with their stand-ins from now on. Node 20 has no public hook for CommonJS
 * requires, so this wraps Module._load, as tsconfig-paths and module-alias do; only requires made by TypeORM's and
 * BullMQ's own modules are resolved a second time to be looked at.
 */
export function skipUnusedModules(): void {
  const loader = Module as unknown as { _load: LoadModule; _resolveFilename: (...args: Parameters<LoadModule>) => string };
  const load = loader._load;
  loader._load = function loadUsedModule(request, parent, isMain) {
    if (parent?.filename !== undefined && REQUIRING_PACKAGES.test(parent.filename)) {
      const filename = loader._resolveFilename(request, parent, isMain);
      if (isUnusedModule(filename)) return unusedModuleStandIn(filename);
    }
    return load.call(this, request, parent, isMain);
  };
}
