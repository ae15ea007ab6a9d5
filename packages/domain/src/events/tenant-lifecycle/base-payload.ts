import { z } from 'zod';
import { calendarDateSchema } from '../../calendar-date';
import { uuidSchema } from '../../ids';
import { penniesSchema, signedPenniesSchema } from '../../money';
import { PROMOTION_DISCOUNT_TYPES } from '../../pricing/promotion';
import { PUBLIC_EVENT_TYPES, type PublicEventType } from '../event-types';
import { parseLifecycleEventId } from './event-id';
import { serviceFeeSchema } from './service-fee';

/** Spec 6.2 unitRental. Money is pennies; a negative balance is a credit. */
export const unitRentalSchema = z.object({
  rentalRecordUuid: uuidSchema,
  unitGroupUuid: uuidSchema,
  unitUuid: uuidSchema,
  facilityUuid: uuidSchema,
  rentalBalance: signedPenniesSchema,
  startRentDate: calendarDateSchema,
  /** Null while the rental is active. */
  endRentDate: calendarDateSchema.nullable(),
});
export type UnitRental = z.infer<typeof unitRentalSchema>;

/**
 * An entry of billingTemplate.promotions (the spec leaves its shape open, this is ours): a promotion the
 * tenant signed for, with its terms as they were at signing.
 */
export const billingPromotionSchema = z.object({
  promotionUuid: uuidSchema,
  promotionName: z.string(),
  discountType: z.enum(PROMOTION_DISCOUNT_TYPES),
  monthStarts: z.number().int().positive(),
  durationInMonths: z.number().int().positive(),
  /** The promotion's whole amount over its months. */
  discountAmountInPennies: penniesSchema,
  /** The recurring service's item type a DISCOUNTED_SERVICE promotion discounts; null for a rent promotion. */
  itemTypeUuid: uuidSchema.nullable(),
});
export type BillingPromotion = z.infer<typeof billingPromotionSchema>;

/** Spec 6.2 billingTemplate. */
export const billingTemplateSchema = z.object({
  currentRentInPennies: penniesSchema,
  additionalServicesAndFees: z.array(serviceFeeSchema),
  promotions: z.array(billingPromotionSchema),
  billingDayOfMonth: z.number().int().min(1).max(31),
  nextDueDate: calendarDateSchema,
});
export type BillingTemplate = z.infer<typeof billingTemplateSchema>;

/** Spec 6.2 primaryContact. */
export const primaryContactSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string(),
  isSMSEnrolled: z.boolean(),
  email: z.string(),
});
export type PrimaryContact = z.infer<typeof primaryContactSchema>;

/** Spec 6.2: the fields every public event carries. */
export const basePayloadSchema = z.object({
  event: z.enum(PUBLIC_EVENT_TYPES),
  eventId: z.string(),
  tenantUuid: uuidSchema,
  unitRental: unitRentalSchema,
  billingTemplate: billingTemplateSchema,
  tenantBalanceInPennies: signedPenniesSchema,
  primaryContact: primaryContactSchema,
});
export type BasePayload = z.infer<typeof basePayloadSchema>;

/**
 * The schema of one public event: the base payload with `event` fixed to its name, plus its added object
 * (spec 6.3), and an eventId that belongs to this rental and event.
 */
export function lifecyclePayloadSchema<E extends PublicEventType, Added extends z.ZodRawShape>(event: E, added: Added) {
  return basePayloadSchema.extend({ event: z.literal(event), ...added }).refine(
    // TypeScript cannot see through the generic extension that the base fields are still there; they are.
    (payload) => eventIdMatches(payload as BasePayload),
    { path: ['eventId'], message: 'eventId must be {rentalRecordUuid}-{epoch ms}-{event} of this payload' },
  );
}

function eventIdMatches(payload: BasePayload): boolean {
  const parts = parseLifecycleEventId(payload.eventId);
  return parts !== null && parts.event === payload.event && parts.rentalRecordUuid === payload.unitRental.rentalRecordUuid;
}
