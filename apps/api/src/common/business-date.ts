import type { CalendarDate } from '@storage/domain';

/** Today's calendar day in a facility's time zone: promotion windows and due dates are local days. */
export function todayIn(timeZone: string, now: Date = new Date()): CalendarDate {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
