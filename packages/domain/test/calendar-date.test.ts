import fc from 'fast-check';
import { addDays, calendarDateSchema, daysBetween, isCalendarDate, toCalendarDate } from '../src';

describe('calendar dates', () => {
  it.each(['2024-02-29', '2000-02-29', '2025-12-31', '1999-01-01', '0001-01-01', '9999-12-31'])('accepts %p', (s) => expect(isCalendarDate(s)).toBe(true));
  it.each(['2023-02-29', '1900-02-29', '2025-13-01', '2025-04-31', '2025-1-01', '2025-01-01T00:00:00Z', '', '0000-01-01', '0000-12-31'])('refuses %p', (s) => {
    expect(isCalendarDate(s)).toBe(false);
    expect(calendarDateSchema.safeParse(s).success).toBe(false);
  });

  it('accepts exactly the strings that name a day of years 0001 to 9999', () => {
    const digits = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length, maxLength: length });
    fc.assert(
      fc.property(fc.tuple(digits(4), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 })), ([year, month, day]) => {
        const s = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
        const ms = Date.parse(`${s}T00:00:00Z`);
        const isDay = year !== '0000' && !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === s;
        expect(isCalendarDate(s)).toBe(isDay);
      }),
      { numRuns: 20_000 },
    );
  });

  it('counts calendar days across month, leap day and year ends', () => {
    expect(daysBetween('2025-01-31', '2025-02-01')).toBe(1);
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysBetween('2025-12-31', '2025-01-01')).toBe(-364);
    expect(addDays('2024-12-27', 5)).toBe('2025-01-01');
    expect(addDays('2025-03-01', -1)).toBe('2025-02-28');
  });

  it('is not shifted by daylight saving or local time zones', () => {
    // 2025-03-09 is a US DST change; UTC calendar days ignore it.
    expect(daysBetween('2025-03-08', '2025-03-10')).toBe(2);
    expect(toCalendarDate(new Date('2025-03-09T23:30:00-05:00'))).toBe('2025-03-10');
  });

  it('refuses malformed input and fractional days', () => {
    expect(() => daysBetween('2025-02-30', '2025-03-01')).toThrow(RangeError);
    expect(() => addDays('2025-01-01', 1.5)).toThrow(RangeError);
  });

  it('addDays and daysBetween are inverse', () => {
    const day = fc.integer({ min: 0, max: 2_900_000 }).map((n) => toCalendarDate(new Date(n * 86_400_000)));
    fc.assert(
      fc.property(day, fc.integer({ min: -5000, max: 5000 }), (date, n) => {
        expect(daysBetween(date, addDays(date, n))).toBe(n);
      }),
    );
  });
});
