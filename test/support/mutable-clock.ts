import { Clock } from '../../src/clock/clock';

/** A clock the test moves by hand; real time when not set. */
export class MutableClock extends Clock {
  private fixed: Date | null = null;

  now(): Date {
    return this.fixed ?? new Date();
  }

  set(instant: Date | string | null): void {
    this.fixed = instant === null ? null : new Date(instant);
  }
}
