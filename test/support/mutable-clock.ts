import { Clock } from '../../src/clock/clock';

/** A clock the test moves by hand; real time when not set. */
export class MutableClock extends Clock {
  private fixed: Date | null = null;
  private offsetMs = 0;

  now(): Date {
    return this.fixed ?? new Date(Date.now() + this.offsetMs);
  }

  /** Stops the clock at an instant (null: real time again). */
  set(instant: Date | string | null): void {
    this.fixed = instant === null ? null : new Date(instant);
    this.offsetMs = 0;
  }

  /** Jumps to an instant and keeps ticking from there, for work that waits for time to pass. */
  travelTo(instant: Date | string): void {
    this.fixed = null;
    this.offsetMs = new Date(instant).getTime() - Date.now();
  }
}
