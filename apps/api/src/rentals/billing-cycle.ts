import { isCalendarDate, type CalendarDate } from '@storage/domain';

/** Billing falls on the move-in day, capped at 28 so every month has it (as the demo data does). */
export function billingDayFor(startDate: CalendarDate): number {
  return Math.min(Number(startDate.slice(8, 10)), 28);
}

/** The first billing day strictly after `from`: this month's when still ahead, else next month's. */
export function nextDueDateAfter(from: CalendarDate, billingDayOfMonth: number): CalendarDate {
  const [year, month, day] = from.split('-').map(Number) as [number, number, number];
  const monthIndex = billingDayOfMonth > day ? month - 1 : month;
  const due = new Date(Date.UTC(year, monthIndex, billingDayOfMonth)).toISOString().slice(0, 10);
  if (!isCalendarDate(due)) throw new RangeError(`no due date after ${from}`);
  return due;
}
