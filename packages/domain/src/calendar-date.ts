import { z } from 'zod';

/**
 * A calendar day as `YYYY-MM-DD`. Date-only business facts (due dates, business dates, promotion windows)
 * are kept as these strings so no time zone can shift them; arithmetic counts UTC calendar days.
 * Strings of this form compare correctly with < and >.
 */
export type CalendarDate = string;

const CALENDAR_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const MS_PER_DAY = 86_400_000;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Well formed and a real day (no 2023-02-29) of the years 0001 to 9999 (PostgreSQL has no year 0). Checked by
 * arithmetic (the Gregorian calendar, as Date's): billing checks every date it computes with, a million rentals a run.
 */
export function isCalendarDate(s: unknown): s is CalendarDate {
  if (typeof s !== 'string' || !CALENDAR_DATE_PATTERN.test(s)) return false;
  const year = Number(s.slice(0, 4));
  const month = Number(s.slice(5, 7));
  const day = Number(s.slice(8, 10));
  const leapDay = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 1 : 0;
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= (DAYS_IN_MONTH[month - 1] ?? 0) + leapDay;
}

function epochDay(date: CalendarDate): number {
  if (!isCalendarDate(date)) throw new RangeError(`Not a YYYY-MM-DD calendar date: ${String(date)}`);
  return Date.parse(`${date}T00:00:00Z`) / MS_PER_DAY;
}

/** Whole days from `from` to `to`; negative when `to` is earlier. */
export function daysBetween(from: CalendarDate, to: CalendarDate): number {
  return epochDay(to) - epochDay(from);
}

export function addDays(date: CalendarDate, days: number): CalendarDate {
  if (!Number.isInteger(days)) throw new RangeError(`Days must be a whole number: ${days}`);
  return toCalendarDate(new Date((epochDay(date) + days) * MS_PER_DAY));
}

/** The UTC calendar day of an instant. */
export function toCalendarDate(instant: Date): CalendarDate {
  return instant.toISOString().slice(0, 10);
}

export const calendarDateSchema = z.string().refine(isCalendarDate, 'Expected a calendar date YYYY-MM-DD');
