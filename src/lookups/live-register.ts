import { Injectable, Logger } from '@nestjs/common';
import {
  KNOWN_PAGE_SHAPES,
  NameSearch,
  pageSample,
  pageShape,
  RegisterClient,
  RegisterError,
  RegisterUnreachableError,
  SearchOptions,
} from '@lvs/register';
import { Clock } from '../clock/clock';
import { RegisterOutageLog } from '../logging/register-outage-log';
import { Metrics } from '../metrics/metrics';
import { RegisterBreaker } from './breaker/register-breaker';
import { LOOKUP_FAILURE } from './lookup-jobs';
import { PageShapeStore } from './page-shape-store';
import { LookupEnding, LookupFailure, RegisterSurface } from './register-surface';

/**
 * The live register (REGISTER_URL) as lookup jobs see it, worker only: the register client, and everything a
 * lookup of it accounts for: the lookup metrics, the breaker, the outage log and the page shapes. Only an unavailable
 * register is retried: a page we cannot read will not read better a second later, and retrying would only load a
 * public service.
 */
@Injectable()
export class LiveRegister implements RegisterSurface {
  // Its lines are the lookup worker's, as operators know them.
  private readonly logger = new Logger('LookupProcessor');
  /** An unreachable register is logged once per outage, not per attempt of every number. */
  private readonly outages = new RegisterOutageLog(this.logger);

  constructor(
    private readonly client: RegisterClient,
    private readonly breaker: RegisterBreaker,
    private readonly metrics: Metrics,
    private readonly pageShapes: PageShapeStore,
    private readonly clock: Clock,
  ) {}

  lookup(licenceNumber: string, options: Pick<SearchOptions, 'onPage'>) {
    return this.client.lookup(licenceNumber, options);
  }

  searchByName(search: NameSearch, options: Pick<SearchOptions, 'onPage'>) {
    return this.client.searchByName(search, options);
  }

  /** The live register answers when the job's turn comes. */
  answerAt(_job: unknown, queuedAt: number): Promise<number> {
    return Promise.resolve(queuedAt);
  }

  record({ outcome, seconds, page, error }: LookupEnding): void {
    this.metrics.observeLookup(outcome, seconds);
    if (error === undefined || outcome === LOOKUP_FAILURE.unavailable) this.recordForBreaker(error === undefined ? 'answered' : 'unavailable');
    if (error instanceof RegisterUnreachableError) this.outages.unreachable(error);
    else if (error === undefined || error instanceof RegisterError) this.outages.answered();
    this.recordPageShape(page, error === undefined);
  }

  retries(failure: LookupFailure): boolean {
    return failure === LOOKUP_FAILURE.unavailable;
  }

  keeps(): boolean {
    return true;
  }

  /**
   * Counts the page's shape; the first page of a shape neither shipped nor seen before is kept as a sample (names and
   * dates of birth as lengths) and waits for the register watch's alert. Not awaited, as the breaker's bookkeeping.
   */
  private recordPageShape(page: string | null, parsed: boolean): void {
    if (page === null) return;
    const shape = pageShape(page);
    this.metrics.countPageShape(shape);
    this.pageShapes
      .record(shape, KNOWN_PAGE_SHAPES.has(shape), this.clock.now(), () => ({ parsed, page: pageSample(page) }))
      .then((isNew) => {
        if (!isNew) return;
        this.metrics.countNewPageShape();
        this.logger.warn(`Register page of a new shape ${shape} (${parsed ? 'parsed' : 'not parsed'}): kept as a sample, see npm run admin -- shape list`);
      })
      .catch((error: unknown) => this.logger.warn(`Recording a register page's shape failed: ${(error as Error).message}`));
  }

  /** Not awaited: the lookup's own outcome does not depend on the breaker's bookkeeping. */
  private recordForBreaker(outcome: 'answered' | 'unavailable'): void {
    this.breaker
      .record(outcome)
      .catch((error: unknown) => this.logger.warn(`Recording a lookup outcome for the breaker failed: ${(error as Error).message}`));
  }
}
