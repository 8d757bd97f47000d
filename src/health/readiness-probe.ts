import type { RegisterDrift } from './register-health';

/**
 * What the lookup pipeline adds to GET /health/ready. Health defines it and LookupReadinessModule
 * provides it, so that health imports no feature.
 */
export abstract class ReadinessProbe {
  /** Pings the Redis connections the pipeline has besides our own client (its queue's); judged with that client as 'redis'. */
  abstract pingQueue(): Promise<void>;

  /** The register breaker's phase, shown as 'registerBreaker' and never judged: an open breaker still serves cached answers. */
  abstract registerBreakerPhase(): Promise<string>;

  /** What of the register waits for an operator's acknowledgement (a canary's failure, a page of a new shape): shown, never judged. */
  abstract registerDrift(): Promise<RegisterDrift>;
}
