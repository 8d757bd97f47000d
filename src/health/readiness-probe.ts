/**
 * What the lookup pipeline adds to GET /health/ready. Health defines it and LookupReadinessModule
 * provides it, so that health imports no feature.
 */
export abstract class ReadinessProbe {
  /** Pings the Redis connections the pipeline has besides our own client (its queue's); judged with that client as 'redis'. */
  abstract pingQueue(): Promise<void>;

  /** The register breaker's phase, shown as 'registerBreaker' and never judged: an open breaker still serves cached answers. */
  abstract registerBreakerPhase(): Promise<string>;

  /** Whether a register canary failed and no operator has acknowledged it yet: shown, never judged. */
  abstract registerDrifted(): Promise<boolean>;
}
