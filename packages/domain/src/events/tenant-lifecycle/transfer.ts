import { z } from 'zod';
import { calendarDateSchema } from '../../calendar-date';
import { uuidSchema } from '../../ids';
import { penniesSchema } from '../../money';
import { lifecyclePayloadSchema } from './base-payload';

/** Spec 6.3 transfer; the base payload's unitRental is the new rental. */
export const transferSchema = z.object({
  transferDate: calendarDateSchema,
  oldUnitRentalRecordUuid: uuidSchema,
  oldUnitUuid: uuidSchema,
  oldUnitRentAmountInPennies: penniesSchema,
  newUnitRentAmountInPennies: penniesSchema,
  transferCreditAmountInPennies: penniesSchema,
});
export type Transfer = z.infer<typeof transferSchema>;

export const transferPayloadSchema = lifecyclePayloadSchema('transfer', { transfer: transferSchema });
export type TransferPayload = z.infer<typeof transferPayloadSchema>;
