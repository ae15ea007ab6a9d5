import { z } from 'zod';
import { calendarDateSchema } from '../../calendar-date';
import { DELINQUENCY_STATUSES } from '../../delinquency/status';
import { uuidSchema } from '../../ids';
import { lifecyclePayloadSchema } from './base-payload';

/** Spec 6.3 delinquencyStatusChange. Statuses are the seven spec names; not delinquent is null. */
export const delinquencyStatusChangeSchema = z.object({
  delinquencyUuid: uuidSchema,
  /** Null on the first step of a delinquency (from not delinquent to OVERDUE). */
  delinquencyPreviousStatus: z.enum(DELINQUENCY_STATUSES).nullable(),
  delinquencyNewStatus: z.enum(DELINQUENCY_STATUSES),
  delinquencyStatusChangeDate: calendarDateSchema,
  /** Set when a payment caused the change. */
  paymentDate: calendarDateSchema.nullable(),
});
export type DelinquencyStatusChange = z.infer<typeof delinquencyStatusChangeSchema>;

export const delinquencyStatusChangePayloadSchema = lifecyclePayloadSchema('delinquency-status-change', {
  delinquencyStatusChange: delinquencyStatusChangeSchema,
});
export type DelinquencyStatusChangePayload = z.infer<typeof delinquencyStatusChangePayloadSchema>;
