import { isCalendarDate, type CalendarDate } from '../calendar-date';

/** The latest billing day of a month: every month has it, so a due date never moves with the month's length. */
export const LAST_BILLING_DAY = 28;

/**
 * One period a rental is billed for, in advance, on its first day. `to` is exclusive: the next due date.
 * A first period shorter than a month (a move-in on the 29th to the 31st, billed from the 28th) is prorated by
 * `days / fullMonthDays`; every other period is a whole month.
 */
export interface BillingPeriod {
  from: CalendarDate;
  to: CalendarDate;
  /** 1-based rental month: 1 for the period that starts at move-in. Promotions name the months they cover. */
  month: number;
  days: number;
  /** Days of the whole billing month that ends where this period ends. */
  fullMonthDays: number;
}

/** Anniversary billing: the move-in day, capped at 28. */
export function billingDayFor(startDate: CalendarDate): number {
  return Math.min(dayOf(startDate), LAST_BILLING_DAY);
}

/** The first billing day strictly after `from`: this month's when still ahead, else next month's. */
export function nextDueDateAfter(from: CalendarDate, billingDayOfMonth: number): CalendarDate {
  assertBillingDay(billingDayOfMonth);
  return format(...monthOfNextDue(parts(from), billingDayOfMonth), billingDayOfMonth);
}

/**
 * The period that starts on `dueDate` of a rental that started on `startDate`: the move-in day itself, or a
 * billing day after it.
 */
export function billingPeriodStarting(startDate: CalendarDate, dueDate: CalendarDate): BillingPeriod {
  const start = parts(startDate);
  const [year, month, day] = parts(dueDate);
  const billingDay = Math.min(start[2], LAST_BILLING_DAY);
  const [firstYear, firstMonth] = monthOfNextDue(start, billingDay);
  // Months since the first due date; the move-in day itself is month 1.
  const afterFirst = (year - firstYear) * 12 + (month - firstMonth);
  if (dueDate !== startDate && (afterFirst < 0 || day !== billingDay)) {
    throw new RangeError(`${dueDate} is not a due date of a rental that started on ${startDate} (billing day ${billingDay})`);
  }
  // The next due date is this month's billing day when still ahead, else next month's (every month has it).
  const [toYear, toMonth] = monthOfNextDue([year, month, day], billingDay);
  return {
    from: dueDate,
    to: format(toYear, toMonth, billingDay),
    month: dueDate === startDate ? 1 : 2 + afterFirst,
    days: toMonth === month ? billingDay - day : daysInMonth(year, month) - day + billingDay,
    // From the billing day of the month before the next due date's to it: that month's length.
    fullMonthDays: toMonth === 1 ? daysInMonth(toYear - 1, 12) : daysInMonth(toYear, toMonth - 1),
  };
}

/** The periods due from `from` through `through` (both inclusive), in order: what a catch-up run posts. */
export function billingPeriodsDue(startDate: CalendarDate, from: CalendarDate, through: CalendarDate): BillingPeriod[] {
  const periods: BillingPeriod[] = [];
  for (let due = from; due <= through;) {
    const period = billingPeriodStarting(startDate, due);
    periods.push(period);
    due = period.to;
  }
  return periods;
}

/*
 * The arithmetic is on year, month and day numbers rather than Date objects and ISO strings: billing computes a
 * period for every rental of a run, a million on the worst day.
 */

type YearMonthDay = [year: number, month: number, day: number];

/** The year and month of the first billing day strictly after a day: its own month's when still ahead, else the next. */
function monthOfNextDue([year, month, day]: YearMonthDay, billingDay: number): [year: number, month: number] {
  if (billingDay > day) return [year, month];
  return month === 12 ? [year + 1, 1] : [year, month + 1];
}

function daysInMonth(year: number, month: number): number {
  if (month !== 2) return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}

function format(year: number, month: number, day: number): CalendarDate {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function parts(date: CalendarDate): YearMonthDay {
  if (!isCalendarDate(date)) throw new RangeError(`Not a YYYY-MM-DD calendar date: ${String(date)}`);
  return [Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
}

function dayOf(date: CalendarDate): number {
  return parts(date)[2];
}

function assertBillingDay(day: number): void {
  if (!Number.isInteger(day) || day < 1 || day > LAST_BILLING_DAY) {
    throw new RangeError(`A billing day is a whole number from 1 to ${LAST_BILLING_DAY}, got ${day}`);
  }
}
