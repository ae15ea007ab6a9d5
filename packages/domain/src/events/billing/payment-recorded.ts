import { z } from 'zod';
import { calendarDateSchema } from '../../calendar-date';
import { uuidSchema } from '../../ids';
import { penniesSchema, signedPenniesSchema } from '../../money';

/** A payment was recorded against a rental; the delinquency scheduler resolves delinquency from it. */
export const paymentRecordedPayloadSchema = z.object({
  rentalRecordUuid: uuidSchema,
  paymentUuid: uuidSchema,
  amountInPennies: penniesSchema.positive(),
  /** Negative is a credit; <= 0 clears delinquency. */
  balanceAfterInPennies: signedPenniesSchema,
  paidOn: calendarDateSchema,
});
export type PaymentRecordedPayload = z.infer<typeof paymentRecordedPayloadSchema>;
