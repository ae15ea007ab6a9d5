import type { CalendarDate } from '../calendar-date';
import { isClearedOn } from './business-date';
import type { DelinquencySchedule } from './schedule';
import { canApplyDelinquencyTrigger, type DelinquencyState, type DelinquencyTransition } from './transitions';

/**
 * What a recorded payment does to delinquency: → PAID, effective paidOn (the event's paymentDate), when it
 * leaves nothing past due beyond the grace period (`isClearedOn`, from the ledger's oldest open charge) and the
 * status is one a payment resolves. Null for a partial payment that leaves an overdue charge open, and for a
 * rental that is not delinquent or is written off.
 */
export function transitionForPayment(input: {
  state: DelinquencyState;
  oldestOpenDueOn: CalendarDate | null;
  paidOn: CalendarDate;
  schedule: DelinquencySchedule;
}): DelinquencyTransition | null {
  const { state, oldestOpenDueOn, paidOn, schedule } = input;
  if (!isClearedOn(oldestOpenDueOn, paidOn, schedule) || !canApplyDelinquencyTrigger(state.status, 'PAYMENT_CLEARED')) return null;
  return { from: state.status, to: 'PAID', trigger: 'PAYMENT_CLEARED', effectiveDate: paidOn };
}
