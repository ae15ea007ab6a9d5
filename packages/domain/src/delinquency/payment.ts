import type { CalendarDate } from '../calendar-date';
import { canApplyDelinquencyTrigger, type DelinquencyState, type DelinquencyTransition } from './transitions';

/**
 * What a recorded payment does to delinquency: → PAID, effective paidOn (the event's paymentDate), when
 * the balance after it is cleared (<= 0) and the status is one a payment resolves. Null for a partial
 * payment and for a rental that is not delinquent or is written off.
 */
export function transitionForPayment(input: {
  state: DelinquencyState;
  balanceAfterInPennies: number;
  paidOn: CalendarDate;
}): DelinquencyTransition | null {
  const { state, balanceAfterInPennies, paidOn } = input;
  if (balanceAfterInPennies > 0 || !canApplyDelinquencyTrigger(state.status, 'PAYMENT_CLEARED')) return null;
  return { from: state.status, to: 'PAID', trigger: 'PAYMENT_CLEARED', effectiveDate: paidOn };
}
