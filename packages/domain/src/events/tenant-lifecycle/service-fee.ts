import { z } from 'zod';
import { uuidSchema } from '../../ids';

/** The fee types spec 6.4 names; FIXED_AMOUNT amounts are pennies, PERCENTAGE amounts percent. */
export const SERVICE_FEE_TYPES = ['FIXED_AMOUNT', 'PERCENTAGE'] as const;
export type ServiceFeeType = (typeof SERVICE_FEE_TYPES)[number];

/** Spec 6.4: one recurring service or fee of a rental. */
export const serviceFeeSchema = z.object({
  description: z.string(),
  amount: z.number().nonnegative(),
  feeType: z.enum(SERVICE_FEE_TYPES),
  itemTypeUuid: uuidSchema,
});
export type ServiceFee = z.infer<typeof serviceFeeSchema>;
