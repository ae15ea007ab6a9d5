import { z } from 'zod';
import { calendarDateSchema } from '../../calendar-date';
import { uuidSchema } from '../../ids';
import { penniesSchema, signedPenniesSchema } from '../../money';

/** A charge (rent, service, late fee) was posted to a rental. */
export const chargePostedPayloadSchema = z.object({
  rentalRecordUuid: uuidSchema,
  chargeUuid: uuidSchema,
  amountInPennies: penniesSchema,
  description: z.string(),
  balanceAfterInPennies: signedPenniesSchema,
  dueDate: calendarDateSchema,
});
export type ChargePostedPayload = z.infer<typeof chargePostedPayloadSchema>;
