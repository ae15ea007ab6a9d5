import type { CalendarDate } from '../calendar-date';
import type { RentalDelinquencyStatus } from './status';

export const DELINQUENCY_TRIGGERS = ['STAGE_ADVANCE', 'PAYMENT_CLEARED', 'PAUSE', 'RESUME', 'WRITE_OFF'] as const;
/**
 * STAGE_ADVANCE: days past due reached the next stage. PAYMENT_CLEARED: a payment left a balance <= 0.
 * PAUSE, RESUME, WRITE_OFF: operator actions.
 */
export type DelinquencyTrigger = (typeof DELINQUENCY_TRIGGERS)[number];

/** Target of RESUME: whatever status the rental held when it was paused. */
export const STATUS_BEFORE_PAUSE = 'STATUS_BEFORE_PAUSE';
export type DelinquencyTransitionTarget = RentalDelinquencyStatus | typeof STATUS_BEFORE_PAUSE;

/**
 * Every allowed (status, trigger) → next status; a pair missing here is refused.
 * - PAID starts over: the next missed payment moves it to OVERDUE again.
 * - A cleared payment resolves any delinquent status, AUCTION and PAUSED included (the caller cancels a
 *   pending auction).
 * - PAUSED never advances; only RESUME, a cleared payment or a write-off leave it.
 * - WRITTEN_OFF is terminal.
 */
export const DELINQUENCY_TRANSITIONS = {
  CURRENT: { STAGE_ADVANCE: 'OVERDUE' },
  OVERDUE: { STAGE_ADVANCE: 'OVERLOCK', PAYMENT_CLEARED: 'PAID', PAUSE: 'PAUSED', WRITE_OFF: 'WRITTEN_OFF' },
  OVERLOCK: { STAGE_ADVANCE: 'LIEN', PAYMENT_CLEARED: 'PAID', PAUSE: 'PAUSED', WRITE_OFF: 'WRITTEN_OFF' },
  LIEN: { STAGE_ADVANCE: 'AUCTION', PAYMENT_CLEARED: 'PAID', PAUSE: 'PAUSED', WRITE_OFF: 'WRITTEN_OFF' },
  AUCTION: { PAYMENT_CLEARED: 'PAID', PAUSE: 'PAUSED', WRITE_OFF: 'WRITTEN_OFF' },
  PAID: { STAGE_ADVANCE: 'OVERDUE' },
  PAUSED: { RESUME: STATUS_BEFORE_PAUSE, PAYMENT_CLEARED: 'PAID', WRITE_OFF: 'WRITTEN_OFF' },
  WRITTEN_OFF: {},
} as const satisfies {
  readonly [S in RentalDelinquencyStatus]: { readonly [T in DelinquencyTrigger]?: DelinquencyTransitionTarget };
};

export type DelinquencyTransitionTable = typeof DELINQUENCY_TRANSITIONS;
/** The triggers a status accepts, known at compile time. */
export type AllowedDelinquencyTrigger<S extends RentalDelinquencyStatus> = keyof DelinquencyTransitionTable[S];
/** The statuses PAUSE is allowed from, and so the ones RESUME can return to. */
export type PausableStatus = {
  [S in RentalDelinquencyStatus]: 'PAUSE' extends AllowedDelinquencyTrigger<S> ? S : never;
}[RentalDelinquencyStatus];

// The same table seen through its general shape, to look up any pair.
const TABLE: { readonly [S in RentalDelinquencyStatus]: { readonly [T in DelinquencyTrigger]?: DelinquencyTransitionTarget } } = DELINQUENCY_TRANSITIONS;

/** A rental's delinquency; pausedFrom is the status to resume to and is set only while PAUSED. */
export interface DelinquencyState {
  status: RentalDelinquencyStatus;
  pausedFrom?: PausableStatus | null | undefined;
}

/** One change of status; effectiveDate is the calendar day it takes effect. */
export interface DelinquencyTransition {
  from: RentalDelinquencyStatus;
  to: RentalDelinquencyStatus;
  trigger: DelinquencyTrigger;
  effectiveDate: CalendarDate;
}

export class IllegalDelinquencyTransition extends Error {
  override readonly name = 'IllegalDelinquencyTransition';

  constructor(
    readonly from: RentalDelinquencyStatus,
    readonly trigger: DelinquencyTrigger,
    detail = 'not allowed',
  ) {
    super(`Delinquency cannot go from ${from} on ${trigger}: ${detail}`);
  }
}

export function canApplyDelinquencyTrigger(status: RentalDelinquencyStatus, trigger: DelinquencyTrigger): boolean {
  return TABLE[status][trigger] !== undefined;
}

export function isPausableStatus(status: RentalDelinquencyStatus): status is PausableStatus {
  return canApplyDelinquencyTrigger(status, 'PAUSE');
}

/**
 * The state after `trigger`; throws IllegalDelinquencyTransition for a refused pair, and for RESUME when
 * the state does not say what was paused. The result's pausedFrom is null unless it is PAUSED.
 */
export function applyDelinquencyTrigger(state: DelinquencyState, trigger: DelinquencyTrigger): Required<DelinquencyState> {
  const from = state.status;
  const target = TABLE[from][trigger];
  if (target === undefined) throw new IllegalDelinquencyTransition(from, trigger);
  if (target === STATUS_BEFORE_PAUSE) {
    if (state.pausedFrom === undefined || state.pausedFrom === null) {
      throw new IllegalDelinquencyTransition(from, trigger, 'the status held before the pause is unknown');
    }
    return { status: state.pausedFrom, pausedFrom: null };
  }
  if (target === 'PAUSED') {
    if (!isPausableStatus(from)) throw new IllegalDelinquencyTransition(from, trigger);
    return { status: 'PAUSED', pausedFrom: from };
  }
  return { status: target, pausedFrom: null };
}
