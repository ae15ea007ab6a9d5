import { Clock, Random } from '../../src/clock';

/** A clock that moves only when told to. */
export class FakeClock extends Clock {
  constructor(private current: Date) {
    super();
  }
  now(): Date {
    return new Date(this.current);
  }
  set(time: Date): void {
    this.current = new Date(time);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** Returns the given values in turn (then the last one forever). */
export class ScriptedRandom extends Random {
  private index = 0;
  constructor(private readonly values: number[]) {
    super();
  }
  next(): number {
    const value = this.values[Math.min(this.index, this.values.length - 1)] ?? 0.5;
    this.index += 1;
    return value;
  }
}
