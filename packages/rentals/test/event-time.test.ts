import { eventTimes } from '../src';

describe('eventTimes', () => {
  it('starts now, one millisecond apart', () => {
    expect(eventTimes(null, 3, 1_000).map((time) => time.getTime())).toEqual([1_000, 1_001, 1_002]);
  });

  it('always comes after the rental’s previous event, even when the clock has not moved on', () => {
    expect(eventTimes(new Date(5_000), 2, 4_000).map((time) => time.getTime())).toEqual([5_001, 5_002]);
  });
});
