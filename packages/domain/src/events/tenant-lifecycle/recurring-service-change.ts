import { z } from 'zod';
import { calendarDateSchema } from '../../calendar-date';
import { lifecyclePayloadSchema } from './base-payload';
import { serviceFeeSchema } from './service-fee';

/** Spec 6.3 recurringServiceChange: the rental's services before and after. */
export const recurringServiceChangeSchema = z.object({
  previousAdditionalServicesFees: z.array(serviceFeeSchema),
  currentAdditionalServicesFees: z.array(serviceFeeSchema),
  serviceChangeDate: calendarDateSchema,
  serviceChangeEffectiveDate: calendarDateSchema,
});
export type RecurringServiceChange = z.infer<typeof recurringServiceChangeSchema>;

export const recurringServiceChangePayloadSchema = lifecyclePayloadSchema('recurring-service-change', {
  recurringServiceChange: recurringServiceChangeSchema,
});
export type RecurringServiceChangePayload = z.infer<typeof recurringServiceChangePayloadSchema>;
