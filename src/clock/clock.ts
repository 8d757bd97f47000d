/** The source of "now" for quota periods, key expiry and result timestamps; tests replace it. */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
