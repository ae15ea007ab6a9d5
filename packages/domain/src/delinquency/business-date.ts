import { addDays, daysBetween, isCalendarDate, type CalendarDate } from '../calendar-date';
import { delinquencyScheduleSchema, stageDay, type DelinquencySchedule } from './schedule';
import { DELINQUENCY_STAGES, stageRank, type DelinquencyStage, type RentalDelinquencyStatus } from './status';
import { applyDelinquencyTrigger, canApplyDelinquencyTrigger, type DelinquencyState, type DelinquencyTransition } from './transitions';

export interface BusinessDateInput extends DelinquencyState {
  /** The due date of the rental's oldest charge not covered by payments (its ledger); null when none is open. */
  oldestOpenDueOn: CalendarDate | null;
  /** The due date the running episode counts days from, fixed when it started; null outside an episode. */
  episodePastDueSince: CalendarDate | null;
  schedule: DelinquencySchedule;
  businessDate: CalendarDate;
}

/**
 * Nothing is past due beyond the grace period on `on`: no open charge, or the oldest one not yet at the OVERDUE
 * day. A partial payment that leaves an overdue charge open does not clear; one that leaves only charges still in
 * their grace period does.
 */
export function isClearedOn(oldestOpenDueOn: CalendarDate | null, on: CalendarDate, schedule: DelinquencySchedule): boolean {
  return oldestOpenDueOn === null || daysBetween(oldestOpenDueOn, on) < stageDay('OVERDUE', schedule);
}

/**
 * What one business day brings to a rental's delinquency, in order:
 * - cleared (`isClearedOn`) while delinquent (OVERDUE to AUCTION): one PAYMENT_CLEARED → PAID, effective
 *   the business date (a payment whose resolution was not applied yet);
 * - otherwise, every stage whose day has come and that the rental has not reached, each once and in order
 *   (a CURRENT rental 35 days past due gets OVERDUE, OVERLOCK, LIEN), effective the day the stage fell due.
 *   Days count from the episode's due date, or before an episode from the oldest open charge's.
 * PAUSED and WRITTEN_OFF get nothing. Stages never go back, so after applying the result the same date
 * yields nothing.
 */
export function transitionsForBusinessDate(input: BusinessDateInput): DelinquencyTransition[] {
  const schedule = delinquencyScheduleSchema.parse(input.schedule);
  if (!isCalendarDate(input.businessDate)) throw new RangeError(`businessDate must be YYYY-MM-DD, got ${String(input.businessDate)}`);
  // PAUSED halts progression and WRITTEN_OFF is terminal: neither is on the stage ladder.
  if (stageRank(input.status) === null) return [];

  if (isClearedOn(input.oldestOpenDueOn, input.businessDate, schedule)) {
    if (!canApplyDelinquencyTrigger(input.status, 'PAYMENT_CLEARED')) return [];
    return [{ from: input.status, to: 'PAID', trigger: 'PAYMENT_CLEARED', effectiveDate: input.businessDate }];
  }
  const dueDate = input.episodePastDueSince ?? input.oldestOpenDueOn;
  if (dueDate === null) return [];
  return stagesToCatchUp(input, dueDate, daysBetween(dueDate, input.businessDate), schedule);
}

function stagesToCatchUp(state: DelinquencyState, dueDate: CalendarDate, daysPastDue: number, schedule: DelinquencySchedule): DelinquencyTransition[] {
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
