import { z } from 'zod';
import { calendarDateSchema } from '../../calendar-date';
import { uuidSchema } from '../../ids';
import { penniesSchema } from '../../money';

/**
 * A rental's autopay charge was declined by the payment processor: nothing was paid, so the charges stay open and
 * delinquency proceeds as for any unpaid charge. `attemptUuid` names the autopay attempt (once per rental and due date).
 */
export const paymentDeclinedPayloadSchema = z.object({
  rentalRecordUuid: uuidSchema,
  attemptUuid: uuidSchema,
  amountInPennies: penniesSchema.positive(),
  /** The processor's decline code, e.g. `card_declined`. */
  reason: z.string().min(1),
  /** The due date whose charges the attempt was to pay. */
  dueDate: calendarDateSchema,
});
export type PaymentDeclinedPayload = z.infer<typeof paymentDeclinedPayloadSchema>;
