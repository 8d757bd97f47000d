interface OutageLogger {
  warn(message: string): void;
  log(message: string): void;
}

/**
 * One warning when lookups stop reaching the register, with the cause and the host (the error's message:
 * "Register <host> unreachable: DNS failure (ENOTFOUND)"), and one line when it answers again, instead of
 * a line per attempt of every number. One per process.
 */
export class RegisterOutageLog {
  /** the host of the register that is unreachable now; null while it answers */
  private down: string | null = null;

  constructor(private readonly logger: OutageLogger) {}

  unreachable(error: { host: string; message: string }): void {
    if (this.down !== null) return;
    this.down = error.host;
    this.logger.warn(`${error.message}; lookups are retried, and further failures to reach it are not logged until it answers again`);
  }

  /** The register answered, whatever it said. */
  answered(): void {
    if (this.down === null) return;
    this.logger.log(`Register ${this.down} answering again`);
    this.down = null;
  }
}
