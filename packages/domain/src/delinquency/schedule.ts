import { z } from 'zod';
import { penniesSchema, type Pennies } from '../money';
import type { DelinquencyStage } from './status';

/** A facility's delinquency schedule, in days past the oldest unpaid due date (the due date is day 0). */
export interface DelinquencySchedule {
  /** Days of grace; OVERDUE starts on day graceDays + 1, when the late fee is charged. */
  graceDays: number;
  overlockDay: number;
  lienDay: number;
  auctionDay: number;
  lateFeeInPennies: Pennies;
}

/** ARCHITECTURE.md "Delinquency"; the late fee of $20 is this package's default, not a published value. */
export const DEFAULT_DELINQUENCY_SCHEDULE: Readonly<DelinquencySchedule> = Object.freeze({
  graceDays: 5,
  overlockDay: 10,
  lienDay: 30,
  auctionDay: 60,
  lateFeeInPennies: 2000,
});

const day = z.number().int().nonnegative();

/** Stages must come in order; two stages may share a day (both are then entered that day, in order). */
export const delinquencyScheduleSchema = z
  .object({ graceDays: day, overlockDay: day, lienDay: day, auctionDay: day, lateFeeInPennies: penniesSchema })
  .refine((s) => s.graceDays + 1 <= s.overlockDay && s.overlockDay <= s.lienDay && s.lienDay <= s.auctionDay, {
    message: 'Stages must be in order: graceDays + 1 <= overlockDay <= lienDay <= auctionDay',
  }) satisfies z.ZodType<DelinquencySchedule>;

/** The number of days past due on which a stage is entered. */
export function stageDay(stage: DelinquencyStage, schedule: DelinquencySchedule): number {
  switch (stage) {
    case 'OVERDUE':
      return schedule.graceDays + 1;
    case 'OVERLOCK':
      return schedule.overlockDay;
    case 'LIEN':
      return schedule.lienDay;
    case 'AUCTION':
      return schedule.auctionDay;
  }
}
