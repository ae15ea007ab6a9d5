import { z } from 'zod';

/**
 * A calendar day as `YYYY-MM-DD`. Date-only business facts (due dates, business dates, promotion windows)
 * are kept as these strings so no time zone can shift them; arithmetic counts UTC calendar days.
 * Strings of this form compare correctly with < and >.
 */
export type CalendarDate = string;

const CALENDAR_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const MS_PER_DAY = 86_400_000;

/** Well formed and a real day (no 2023-02-29) of the years 0001 to 9999 (PostgreSQL has no year 0). */
export function isCalendarDate(s: unknown): s is CalendarDate {
  if (typeof s !== 'string' || !CALENDAR_DATE_PATTERN.test(s) || s.startsWith('0000')) return false;
  const ms = Date.parse(`${s}T00:00:00Z`);
  // A day that does not exist either fails to parse or comes back as another day.
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === s;
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
