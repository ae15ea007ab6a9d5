/** The time source of retries, leases and portal links; tests substitute a clock they move by hand. */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

/** Randomness for retry jitter, injectable for the same reason. */
export abstract class Random {
  /** A number in [0, 1). */
  abstract next(): number;
}

export class MathRandom extends Random {
  next(): number {
    return Math.random();
  }
}
