import { z } from 'zod';
import { calendarDateSchema } from '../../calendar-date';
import { penniesSchema } from '../../money';
import { lifecyclePayloadSchema } from './base-payload';

/** Spec 6.3 rentChange. */
export const rentChangeSchema = z.object({
  previousRentInPennies: penniesSchema,
  currentRentInPennies: penniesSchema,
  /** The day the change was decided. */
  rentChangeDate: calendarDateSchema,
  /** The day the new rent applies from. */
  rentChangeEffectiveDate: calendarDateSchema,
});
export type RentChange = z.infer<typeof rentChangeSchema>;

export const rentChangePayloadSchema = lifecyclePayloadSchema('rent-change', { rentChange: rentChangeSchema });
export type RentChangePayload = z.infer<typeof rentChangePayloadSchema>;
