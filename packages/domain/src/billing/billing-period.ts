import { daysBetween, isCalendarDate, type CalendarDate } from '../calendar-date';

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
  const [year, month, day] = parts(from);
  return billingDayIn(year, billingDayOfMonth > day ? month : month + 1, billingDayOfMonth);
}

/**
 * The period that starts on `dueDate` of a rental that started on `startDate`: the move-in day itself, or a
 * billing day after it.
 */
export function billingPeriodStarting(startDate: CalendarDate, dueDate: CalendarDate): BillingPeriod {
  const billingDay = billingDayFor(startDate);
  const firstDue = nextDueDateAfter(startDate, billingDay);
  let month: number;
  if (dueDate === startDate) {
    month = 1;
  } else {
    if (dueDate < firstDue || dayOf(dueDate) !== billingDay) {
      throw new RangeError(`${dueDate} is not a due date of a rental that started on ${startDate} (billing day ${billingDay})`);
    }
    month = 2 + monthsBetween(firstDue, dueDate);
  }
  const to = nextDueDateAfter(dueDate, billingDay);
  const [year, monthOfTo] = parts(to);
  return {
    from: dueDate,
    to,
    month,
    days: daysBetween(dueDate, to),
    fullMonthDays: daysBetween(billingDayIn(year, monthOfTo - 1, billingDay), to),
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

/** 1-based month `month` may run past December or before January: Date.UTC carries it into the year. */
function billingDayIn(year: number, month: number, billingDay: number): CalendarDate {
  return new Date(Date.UTC(year, month - 1, billingDay)).toISOString().slice(0, 10);
}

function monthsBetween(from: CalendarDate, to: CalendarDate): number {
  const [y1, m1] = parts(from);
  const [y2, m2] = parts(to);
  return (y2 - y1) * 12 + (m2 - m1);
}

function parts(date: CalendarDate): [number, number, number] {
  if (!isCalendarDate(date)) throw new RangeError(`Not a YYYY-MM-DD calendar date: ${String(date)}`);
  return date.split('-').map(Number) as [number, number, number];
}

function dayOf(date: CalendarDate): number {
  return parts(date)[2];
}

function assertBillingDay(day: number): void {
  if (!Number.isInteger(day) || day < 1 || day > LAST_BILLING_DAY) {
    throw new RangeError(`A billing day is a whole number from 1 to ${LAST_BILLING_DAY}, got ${day}`);
  }
}
