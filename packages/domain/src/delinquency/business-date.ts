import { addDays, daysBetween, isCalendarDate, type CalendarDate } from '../calendar-date';
import { delinquencyScheduleSchema, stageDay, type DelinquencySchedule } from './schedule';
import { DELINQUENCY_STAGES, stageRank, type DelinquencyStage, type RentalDelinquencyStatus } from './status';
import {
  applyDelinquencyTrigger,
  canApplyDelinquencyTrigger,
  type DelinquencyState,
  type DelinquencyTransition,
} from './transitions';

export interface BusinessDateInput extends DelinquencyState {
  /** Positive means the tenant owes money; <= 0 means cleared. */
  balanceInPennies: number;
  oldestUnpaidDueDate: CalendarDate | null;
  schedule: DelinquencySchedule;
  businessDate: CalendarDate;
}

/**
 * What one business day brings to a rental's delinquency, in order:
 * - balance cleared (<= 0) while delinquent (OVERDUE to AUCTION): one PAYMENT_CLEARED → PAID, effective
 *   the business date (a payment whose resolution was not applied yet);
 * - otherwise, every stage whose day has come and that the rental has not reached, each once and in order
 *   (a CURRENT rental 35 days past due gets OVERDUE, OVERLOCK, LIEN), effective the day the stage fell due.
 * PAUSED and WRITTEN_OFF get nothing. Stages never go back, so after applying the result the same date
 * yields nothing.
 */
export function transitionsForBusinessDate(input: BusinessDateInput): DelinquencyTransition[] {
  const schedule = delinquencyScheduleSchema.parse(input.schedule);
  if (!isCalendarDate(input.businessDate)) throw new RangeError(`businessDate must be YYYY-MM-DD, got ${String(input.businessDate)}`);
  // PAUSED halts progression and WRITTEN_OFF is terminal: neither is on the stage ladder.
  if (stageRank(input.status) === null) return [];

  if (input.balanceInPennies <= 0) {
    if (!canApplyDelinquencyTrigger(input.status, 'PAYMENT_CLEARED')) return [];
    return [{ from: input.status, to: 'PAID', trigger: 'PAYMENT_CLEARED', effectiveDate: input.businessDate }];
  }
  const dueDate = input.oldestUnpaidDueDate;
  if (dueDate === null) return [];
  return stagesToCatchUp(input, dueDate, daysBetween(dueDate, input.businessDate), schedule);
}

function stagesToCatchUp(
  state: DelinquencyState,
  dueDate: CalendarDate,
  daysPastDue: number,
  schedule: DelinquencySchedule,
): DelinquencyTransition[] {
  const transitions: DelinquencyTransition[] = [];
  let current = state;
  for (const stage of stagesAfter(state.status)) {
    if (daysPastDue < stageDay(stage, schedule)) break;
    const next = applyDelinquencyTrigger(current, 'STAGE_ADVANCE');
    if (next.status !== stage) throw new Error(`Transition table advances ${current.status} to ${next.status}, not ${stage}`);
    const effectiveDate = addDays(dueDate, stageDay(stage, schedule));
    transitions.push({ from: current.status, to: stage, trigger: 'STAGE_ADVANCE', effectiveDate });
    current = next;
  }
  return transitions;
}

function stagesAfter(status: RentalDelinquencyStatus): readonly DelinquencyStage[] {
  return DELINQUENCY_STAGES.slice(stageRank(status) ?? DELINQUENCY_STAGES.length);
}
