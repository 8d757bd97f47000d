import { collectDefaultMetrics, Counter, Gauge, Histogram, LabelValues, Registry } from 'prom-client';
import { RegisterTally, tallyOf } from './register-tally';

// Label values are closed lists, registered up front: every series exists (at 0) from the first
// scrape, and nothing a caller sends can create a new series.
const VERIFICATION_OUTCOMES = ['FOUND', 'NOT_FOUND', 'TOO_MANY_RESULTS', 'PENDING'] as const;
const VERIFICATION_SOURCES = ['cache', 'register'] as const;
const LOOKUP_OUTCOMES = ['FOUND', 'NOT_FOUND', 'TOO_MANY_RESULTS', 'SERVICE_UNAVAILABLE', 'PARSE_ERROR', 'INTERNAL_ERROR'] as const;
const QUEUE_STATES = ['waiting', 'prioritized', 'active', 'delayed', 'failed'] as const;
const BREAKER_PHASES = ['closed', 'open', 'half-open'] as const;
/** The operator alerts (register-watch), each with its recovery where it has one. */
export const OPERATOR_ALERT_TYPES = [
  'register.canary_failed',
  'register.page_shape_new',
  'register.unavailable',
  'register.recovered',
  'queue.backlog',
  'evidence.drain_lagging',
] as const;
export type OperatorAlertType = (typeof OPERATOR_ALERT_TYPES)[number];

export type VerificationOutcome = (typeof VERIFICATION_OUTCOMES)[number];
export type VerificationSource = (typeof VERIFICATION_SOURCES)[number];
export type LookupOutcomeLabel = (typeof LOOKUP_OUTCOMES)[number];
export type BreakerPhaseLabel = (typeof BREAKER_PHASES)[number];
export type QueueCounts = Partial<Record<(typeof QUEUE_STATES)[number], number>>;
/** The lookup queues: the register's (live lookups) and the test one. */
export type LookupQueueWorld = 'live' | 'test';

/** The gauges read from Redis when scraped. */
const SCRAPE_READ_GAUGES = [
  'lvs_lookup_queue_jobs',
  'lvs_test_lookup_queue_jobs',
  'lvs_register_breaker_state',
  'lvs_evidence_oldest_waiting_seconds',
  'lvs_register_canary_ok',
] as const;
type ScrapeReadGauge = (typeof SCRAPE_READ_GAUGES)[number];

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Every metric of both processes, defined once. Code receives this object and calls its methods;
 * it never builds a metric itself. Each process has its own registry, served at /metrics.
 */
export class Metrics {
  readonly registry = new Registry();
  /** Per lookup queue: the live (register) queue's and the test queue's counts. */
  private readonly queueCounts: Partial<Record<LookupQueueWorld, () => Promise<QueueCounts>>> = {};
  private breakerPhase: (() => Promise<BreakerPhaseLabel>) | null = null;
  private evidenceWaitingSeconds: (() => Promise<number>) | null = null;
  private canaryDrifted: (() => Promise<boolean>) | null = null;
  // label children cached by key: the per-request cost is one Map lookup and one observe
  private readonly httpChildren = new Map<string, Histogram.Internal<'method' | 'route' | 'status'>>();
  private readonly verificationChildren: Record<VerificationOutcome, Record<VerificationSource, Counter.Internal>>;

  private readonly httpDuration = new Histogram({
    name: 'lvs_http_request_duration_seconds',
    help: 'HTTP request duration by route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  });
  private readonly verifications = new Counter({
    name: 'lvs_verifications_total',
    help: 'Verification answers by outcome and source (cache or register)',
    labelNames: ['outcome', 'source'] as const,
    registers: [this.registry],
  });
  private readonly quotaRefusals = new Counter({
    name: 'lvs_quota_refusals_total',
    help: 'Verifications refused with 429 QUOTA_EXCEEDED',
    registers: [this.registry],
  });
  private readonly ledgerSweepFailures = new Counter({
    name: 'lvs_quota_ledger_sweep_failures_total',
    help: 'Sweeps for the charges of failed lookups that nobody refunded, which failed (each process sweeps every 30 s)',
    registers: [this.registry],
  });
  private readonly lookups = new Counter({
    name: 'lvs_register_lookups_total',
    help: 'Register lookup attempts by outcome (worker)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly lookupDuration = new Histogram({
    name: 'lvs_register_lookup_duration_seconds',
    help: 'Register lookup attempt duration by outcome (worker)',
    labelNames: ['outcome'] as const,
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  });

  private readonly alertsSent = new Counter({
    name: 'lvs_alerts_sent_total',
    help: 'Operator alerts delivered to OPERATOR_ALERT_URL by type (worker)',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });

  private readonly pageShapes = new Counter({
    name: 'lvs_register_page_shapes_total',
    help: 'Register pages read, by shape (a digest of the layout; docs/operations.md "Register watch") (worker)',
    labelNames: ['shape'] as const,
    registers: [this.registry],
  });
  private readonly newPageShapes = new Counter({
    name: 'lvs_register_page_shape_new_total',
    help: 'Register pages of a shape never seen before, each kept as a sample and alerted once (worker)',
    registers: [this.registry],
  });

  private readonly scrapeReadFailures = new Counter({
    name: 'lvs_scrape_read_failures_total',
    help: 'Reads at scrape time that failed (Redis slow or down), by gauge: the gauge keeps its last value for that scrape',
    labelNames: ['gauge'] as const,
    registers: [this.registry],
  });

  constructor() {
    // collect() runs with the gauge as `this`: it reads the service through this name.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const metrics = this;
    for (const { world, name, help } of [
      { world: 'live', name: 'lvs_lookup_queue_jobs', help: 'Lookup jobs in the queue by state, read at scrape time' },
      { world: 'test', name: 'lvs_test_lookup_queue_jobs', help: "Test users' lookup jobs in the test queue by state, read at scrape time" },
    ] as const) {
      new Gauge({
        name,
        help,
        labelNames: ['state'] as const,
        registers: [this.registry],
        async collect() {
          const counts = await metrics.readAtScrape(name, metrics.queueCounts[world]);
          if (counts) for (const state of QUEUE_STATES) this.set({ state }, counts[state] ?? 0);
        },
      });
    }
    new Gauge({
      name: 'lvs_register_breaker_state',
      help: 'Register circuit breaker, shared by all processes: 1 for its current state, read at scrape time',
      labelNames: ['state'] as const,
      registers: [this.registry],
      async collect() {
        const current = await metrics.readAtScrape('lvs_register_breaker_state', metrics.breakerPhase);
        if (current) for (const state of BREAKER_PHASES) this.set({ state }, state === current ? 1 : 0);
      },
    });
    new Gauge({
      name: 'lvs_evidence_oldest_waiting_seconds',
      help: 'Age of the oldest verification record waiting in Redis for a worker to write it to PostgreSQL (0: none), read at scrape time',
      registers: [this.registry],
      async collect() {
        const seconds = await metrics.readAtScrape('lvs_evidence_oldest_waiting_seconds', metrics.evidenceWaitingSeconds);
        if (seconds !== undefined) this.set(seconds);
      },
    });
    new Gauge({
      name: 'lvs_register_canary_ok',
      help: 'Register canaries: 0 while a canary failure waits for an operator to acknowledge it, else 1; read at scrape time (worker)',
      registers: [this.registry],
      async collect() {
        const drifted = await metrics.readAtScrape('lvs_register_canary_ok', metrics.canaryDrifted);
        if (drifted !== undefined) this.set(drifted ? 0 : 1);
      },
    });
    collectDefaultMetrics({ register: this.registry });
    // Label children built once: an answer is counted without prom-client hashing its labels.
    this.verificationChildren = Object.fromEntries(
      VERIFICATION_OUTCOMES.map((outcome) => [
        outcome,
        Object.fromEntries(
          VERIFICATION_SOURCES.map((source) => {
            const child = this.verifications.labels({ outcome, source });
            child.inc(0);
            return [source, child];
          }),
        ),
      ]),
    ) as typeof this.verificationChildren;
    for (const type of OPERATOR_ALERT_TYPES) this.alertsSent.inc({ type }, 0);
    for (const gauge of SCRAPE_READ_GAUGES) this.scrapeReadFailures.inc({ gauge }, 0);
    for (const outcome of LOOKUP_OUTCOMES) {
      this.lookups.inc({ outcome }, 0);
      this.lookupDuration.zero({ outcome });
    }
  }

  /**
   * A gauge's read at scrape time, or undefined when it has no source in this process or the read failed: one slow
   * Redis read must not turn the whole scrape into a 500, hiding the process metrics that would explain it.
   */
  private async readAtScrape<T>(gauge: ScrapeReadGauge, read: (() => Promise<T>) | null | undefined): Promise<T | undefined> {
    if (!read) return undefined;
    try {
      return await read();
    } catch {
      this.scrapeReadFailures.inc({ gauge });
      return undefined;
    }
  }

  /** Where the queue gauge reads its counts when scraped. */
  readQueueCountsFrom(world: LookupQueueWorld, source: () => Promise<QueueCounts>): void {
    this.queueCounts[world] = source;
  }

  /** Where the breaker gauge reads the state when scraped. */
  readBreakerPhaseFrom(source: () => Promise<BreakerPhaseLabel>): void {
    this.breakerPhase = source;
  }

  /** Where the evidence gauge reads the age of the oldest waiting record when scraped. */
  readEvidenceWaitingFrom(source: () => Promise<number>): void {
    this.evidenceWaitingSeconds = source;
  }

  /** Where the canary gauge reads whether an unacknowledged canary failure exists when scraped. */
  readCanaryDriftFrom(source: () => Promise<boolean>): void {
    this.canaryDrifted = source;
  }

  /** One register page read, by its shape: a label per layout the register has served, few by nature. */
  countPageShape(shape: string): void {
    this.pageShapes.inc({ shape });
  }

  countNewPageShape(): void {
    this.newPageShapes.inc();
  }

  countAlertSent(type: OperatorAlertType): void {
    this.alertsSent.inc({ type });
  }

  observeHttpRequest(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let child = this.httpChildren.get(key);
    if (!child) {
      child = this.httpDuration.labels({ method, route, status: String(status) } as LabelValues<'method' | 'route' | 'status'>);
      this.httpChildren.set(key, child);
    }
    child.observe(seconds);
  }

  countVerification(outcome: VerificationOutcome, source: VerificationSource): void {
    this.verificationChildren[outcome][source].inc();
  }

  countQuotaRefusal(): void {
    this.quotaRefusals.inc();
  }

  countLedgerSweepFailure(): void {
    this.ledgerSweepFailures.inc();
  }

  observeLookup(outcome: LookupOutcomeLabel, seconds: number): void {
    this.lookups.inc({ outcome });
    this.lookupDuration.observe({ outcome }, seconds);
  }

  /** This process's register lookups as /metrics counts them (worker; all zero in the API, which looks nothing up). */
  async registerTally(): Promise<RegisterTally> {
    return tallyOf(await this.lookups.get(), await this.lookupDuration.get(), await this.newPageShapes.get());
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}
