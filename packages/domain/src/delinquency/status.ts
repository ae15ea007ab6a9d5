/** The delinquency statuses of spec section 3, the only values events carry. */
export const DELINQUENCY_STATUSES = ['OVERDUE', 'OVERLOCK', 'LIEN', 'AUCTION', 'PAID', 'PAUSED', 'WRITTEN_OFF'] as const;
export type DelinquencyStatus = (typeof DELINQUENCY_STATUSES)[number];

/**
 * A rental that is not delinquent (never was, or not yet). Kept as a status of its own rather than null
 * so the transition table and exhaustive switches cover it; events show it as null (see toEventStatus).
 */
export const NOT_DELINQUENT = 'CURRENT';

/** Every status a rental's delinquency can hold, including not delinquent. */
export const RENTAL_DELINQUENCY_STATUSES = [NOT_DELINQUENT, ...DELINQUENCY_STATUSES] as const;
export type RentalDelinquencyStatus = (typeof RENTAL_DELINQUENCY_STATUSES)[number];

/** The stages that advance with days past due, in order. */
export const DELINQUENCY_STAGES = ['OVERDUE', 'OVERLOCK', 'LIEN', 'AUCTION'] as const;
export type DelinquencyStage = (typeof DELINQUENCY_STAGES)[number];

/** The status as delinquency-status-change shows it: not delinquent becomes null (a first OVERDUE's previous status). */
export function toEventStatus(status: RentalDelinquencyStatus): DelinquencyStatus | null {
  return status === NOT_DELINQUENT ? null : status;
}

/**
 * How far along the stages a status is: 0 before the first stage (CURRENT, or PAID which starts over),
 * 1 to 4 for OVERDUE to AUCTION, null for statuses outside progression (PAUSED, WRITTEN_OFF).
 */
export function stageRank(status: RentalDelinquencyStatus): number | null {
  switch (status) {
    case 'CURRENT':
    case 'PAID':
      return 0;
    case 'OVERDUE':
    case 'OVERLOCK':
    case 'LIEN':
    case 'AUCTION':
      return DELINQUENCY_STAGES.indexOf(status) + 1;
    case 'PAUSED':
    case 'WRITTEN_OFF':
      return null;
  }
}
