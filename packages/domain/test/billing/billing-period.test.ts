import fc from 'fast-check';
import { addDays, billingDayFor, billingPeriodsDue, billingPeriodStarting, daysBetween, nextDueDateAfter, type CalendarDate } from '../../src';

describe('billing day', () => {
  it('is the move-in day, capped at 28', () => {
    expect(billingDayFor('2026-03-01')).toBe(1);
    expect(billingDayFor('2026-03-15')).toBe(15);
    expect(billingDayFor('2026-03-28')).toBe(28);
    expect(billingDayFor('2026-03-29')).toBe(28);
    expect(billingDayFor('2026-01-31')).toBe(28);
  });

  it('next due date is the first billing day strictly after a day, across a year end', () => {
    expect(nextDueDateAfter('2026-03-10', 15)).toBe('2026-03-15');
    expect(nextDueDateAfter('2026-03-15', 15)).toBe('2026-04-15');
    expect(nextDueDateAfter('2026-12-20', 15)).toBe('2027-01-15');
    expect(nextDueDateAfter('2026-01-31', 28)).toBe('2026-02-28');
  });

  it('refuses a billing day outside 1 to 28', () => {
    expect(() => nextDueDateAfter('2026-03-10', 29)).toThrow(RangeError);
    expect(() => nextDueDateAfter('2026-03-10', 0)).toThrow(RangeError);
  });
});

describe('billing periods', () => {
  it('a move-in on day 1 to 28 gives a whole first month', () => {
    expect(billingPeriodStarting('2026-03-15', '2026-03-15')).toEqual({ from: '2026-03-15', to: '2026-04-15', month: 1, days: 31, fullMonthDays: 31 });
    expect(billingPeriodStarting('2026-02-01', '2026-02-01')).toEqual({ from: '2026-02-01', to: '2026-03-01', month: 1, days: 28, fullMonthDays: 28 });
  });

  it('a move-in on the 29th to the 31st gives a short first period up to the next 28th', () => {
    expect(billingPeriodStarting('2026-01-31', '2026-01-31')).toEqual({ from: '2026-01-31', to: '2026-02-28', month: 1, days: 28, fullMonthDays: 31 });
    expect(billingPeriodStarting('2026-03-29', '2026-03-29')).toEqual({ from: '2026-03-29', to: '2026-04-28', month: 1, days: 30, fullMonthDays: 31 });
    expect(billingPeriodStarting('2028-02-29', '2028-02-29')).toEqual({ from: '2028-02-29', to: '2028-03-28', month: 1, days: 28, fullMonthDays: 29 });
    // The month after: whole.
    expect(billingPeriodStarting('2026-01-31', '2026-02-28')).toEqual({ from: '2026-02-28', to: '2026-03-28', month: 2, days: 28, fullMonthDays: 28 });
  });

  it('numbers rental months across a year end', () => {
    expect(billingPeriodStarting('2026-11-10', '2027-02-10').month).toBe(4);
  });

  it("refuses a day that is not one of the rental's due dates", () => {
    expect(() => billingPeriodStarting('2026-03-15', '2026-04-14')).toThrow(RangeError);
    expect(() => billingPeriodStarting('2026-03-15', '2026-02-15')).toThrow(RangeError);
  });

  it('lists the periods a catch-up run posts, in order', () => {
    expect(billingPeriodsDue('2026-03-15', '2026-04-15', '2026-06-15').map((p) => [p.from, p.month])).toEqual([
      ['2026-04-15', 2],
      ['2026-05-15', 3],
      ['2026-06-15', 4],
    ]);
    expect(billingPeriodsDue('2026-03-15', '2026-04-15', '2026-05-14')).toHaveLength(1);
  });

  const startDate = fc.integer({ min: 0, max: 3_650 }).map((offset): CalendarDate => addDays('2024-01-01', offset));

  it('periods tile time from move-in: contiguous, numbered 1, 2, 3…, whole months after the first', () => {
    fc.assert(
      fc.property(startDate, fc.integer({ min: 1, max: 40 }), (start, count) => {
        const billingDay = billingDayFor(start);
        let due = start;
        for (let month = 1; month <= count; month++) {
          const period = billingPeriodStarting(start, due);
          expect(period.month).toBe(month);
          expect(period.days).toBe(daysBetween(period.from, period.to));
          expect(Number(period.to.slice(8))).toBe(billingDay);
          // The whole billing month ending at `to` runs from the same billing day a month earlier (Date's calendar).
          const [toYear, toMonth] = period.to.split('-').map(Number) as [number, number];
          const monthBefore = new Date(Date.UTC(toYear, toMonth - 2, billingDay)).toISOString().slice(0, 10);
          expect(period.fullMonthDays).toBe(daysBetween(monthBefore, period.to));
          if (month === 1) expect(period.days).toBeLessThanOrEqual(period.fullMonthDays);
          else expect(period.days).toBe(period.fullMonthDays);
          // Short only for a move-in after the 28th.
          expect(period.days < period.fullMonthDays).toBe(month === 1 && Number(start.slice(8)) > 28);
          due = period.to;
        }
      }),
    );
  });
});
