// The only entry of @storage/domain. Pure rules and contracts: no framework, broker, database or HTTP code.

export { isPennies, penniesSchema, roundPennies, signedPenniesSchema, type Pennies } from './money';
export { isUuid, timeOrderedUuid, uuidSchema } from './ids';
export { isValidEmail, isValidPhone, normalizePhone } from './contact';
export { COVERAGE_PROVIDERS, PRIVATE_COVERAGE_UUID, type CoverageProvider } from './coverage';
export { addDays, calendarDateSchema, daysBetween, isCalendarDate, toCalendarDate, type CalendarDate } from './calendar-date';

export {
  InvalidPromotion,
  PROMOTION_DISCOUNT_TYPES,
  PROMOTION_TENANT_TYPES,
  type Promotion,
  type PromotionDiscountType,
  type PromotionFamily,
  type PromotionTenantType,
} from './pricing/promotion';
export { monthlyDiscount, promotionAmount, type DiscountTerms } from './pricing/promotion-amount';
export {
  isPromotionEligible,
  PROMOTION_INELIGIBILITY_REASONS,
  promotionIneligibility,
  type PromotionContext,
  type PromotionIneligibility,
} from './pricing/promotion-eligibility';
export {
  bestPromotionsForUnitGroup,
  type BestPromotions,
  type BestPromotionsInput,
  type ItemType,
  type PromotionWinner,
  type ServicePromotionWinner,
} from './pricing/best-promotions';
export { bandFor, currentRates, occupancyPercent, type CurrentRates, type CurrentRatesInput, type OccupancyBand } from './pricing/rate-plans';

export { billingDayFor, billingPeriodsDue, billingPeriodStarting, LAST_BILLING_DAY, nextDueDateAfter, type BillingPeriod } from './billing/billing-period';
export {
  CHARGE_KINDS,
  chargesForPeriod,
  monthlyServiceFee,
  moveInCharges,
  netAmount,
  rentForPeriod,
  type PeriodCharge,
  type PeriodChargeKind,
  type PromotionDiscount,
  type PromotionTerms,
  type RentalBillingTerms,
  type RentChangeTerms,
} from './billing/period-charges';
export { allocatePayment, balanceOf, openCharges, pastDueSince, type LedgerLine, type OpenCharge } from './billing/ledger';

export {
  DELINQUENCY_STAGES,
  DELINQUENCY_STATUSES,
  NOT_DELINQUENT,
  RENTAL_DELINQUENCY_STATUSES,
  stageRank,
  toEventStatus,
  type DelinquencyStage,
  type DelinquencyStatus,
  type RentalDelinquencyStatus,
} from './delinquency/status';
export { DEFAULT_DELINQUENCY_SCHEDULE, delinquencyScheduleSchema, stageDay, type DelinquencySchedule } from './delinquency/schedule';
export {
  applyDelinquencyTrigger,
  canApplyDelinquencyTrigger,
  DELINQUENCY_TRANSITIONS,
  DELINQUENCY_TRIGGERS,
  IllegalDelinquencyTransition,
  isPausableStatus,
  STATUS_BEFORE_PAUSE,
  type AllowedDelinquencyTrigger,
  type DelinquencyState,
  type DelinquencyTransition,
  type DelinquencyTransitionTable,
  type DelinquencyTransitionTarget,
  type DelinquencyTrigger,
  type PausableStatus,
} from './delinquency/transitions';
export { isClearedOn, transitionsForBusinessDate, type BusinessDateInput } from './delinquency/business-date';
export { transitionForPayment } from './delinquency/payment';

export { BILLING_TOPIC, TENANT_LIFECYCLE_TOPIC, TOPICS, WEBHOOK_COMMANDS_TOPIC, type Topic } from './events/topics';
export {
  BILLING_EVENT_TYPES,
  EVENT_TYPES,
  isEventType,
  isPublicEventType,
  PUBLIC_EVENT_TYPES,
  WEBHOOK_COMMAND_TYPES,
  type BillingEventType,
  type EventType,
  type PublicEventType,
  type WebhookCommandType,
} from './events/event-types';
export { InvalidEvent } from './events/invalid-event';
export { lifecycleEventId, parseLifecycleEventId, type LifecycleEventIdParts } from './events/tenant-lifecycle/event-id';
export { SERVICE_FEE_TYPES, serviceFeeSchema, type ServiceFee, type ServiceFeeType } from './events/tenant-lifecycle/service-fee';
export {
  basePayloadSchema,
  billingPromotionSchema,
  billingTemplateSchema,
  primaryContactSchema,
  unitRentalSchema,
  type BasePayload,
  type BillingPromotion,
  type BillingTemplate,
  type PrimaryContact,
  type UnitRental,
} from './events/tenant-lifecycle/base-payload';
export { movedInPayloadSchema, type MovedInPayload } from './events/tenant-lifecycle/moved-in';
export { movedOutPayloadSchema, type MovedOutPayload } from './events/tenant-lifecycle/moved-out';
export { rentChangePayloadSchema, rentChangeSchema, type RentChange, type RentChangePayload } from './events/tenant-lifecycle/rent-change';
export {
  delinquencyStatusChangePayloadSchema,
  delinquencyStatusChangeSchema,
  type DelinquencyStatusChange,
  type DelinquencyStatusChangePayload,
} from './events/tenant-lifecycle/delinquency-status-change';
export {
  recurringServiceChangePayloadSchema,
  recurringServiceChangeSchema,
  type RecurringServiceChange,
  type RecurringServiceChangePayload,
} from './events/tenant-lifecycle/recurring-service-change';
export {
  AUCTION_STAGES,
  auctionPayloadSchema,
  auctionSchema,
  bidAmountSchema,
  type Auction,
  type AuctionPayload,
  type AuctionStage,
  type BidAmount,
} from './events/tenant-lifecycle/auction';
export { transferPayloadSchema, transferSchema, type Transfer, type TransferPayload } from './events/tenant-lifecycle/transfer';
export { paymentRecordedPayloadSchema, type PaymentRecordedPayload } from './events/billing/payment-recorded';
export { chargePostedPayloadSchema, type ChargePostedPayload } from './events/billing/charge-posted';
export { paymentDeclinedPayloadSchema, type PaymentDeclinedPayload } from './events/billing/payment-declined';
export { webhookTestEventPayloadSchema, type WebhookTestEventPayload } from './events/webhook-commands/webhook-test-event';
export { webhookResendPayloadSchema, type WebhookResendPayload } from './events/webhook-commands/webhook-resend';
export { webhookRecoverPayloadSchema, type WebhookRecoverPayload } from './events/webhook-commands/webhook-recover';
export {
  EVENT_PAYLOAD_SCHEMAS,
  EVENT_TOPIC,
  parseEventPayload,
  topicFor,
  type EventPayloads,
  type EventTopic,
  type PublicEventPayload,
} from './events/event-payloads';
export { WEBHOOK_TEST_UUID, webhookTestPayload } from './events/webhook-commands/webhook-test-payload';
export { asyncApiDocument, serializeAsyncApi } from './events/asyncapi';
export { EVENT_EMITTED_WHEN } from './events/emitted-when';
export { eventJsonSchema, type JsonSchemaTarget } from './events/json-schema';
export {
  WEBHOOK_HEADERS,
  WEBHOOK_SIGNATURE_VERIFICATION,
  WEBHOOK_TEST_FLAG_DESCRIPTION,
  webhookDeliveryBody,
  webhookDeliveryBodySchema,
  type WebhookDeliveryKind,
} from './events/webhook-delivery';
export {
  createEnvelope,
  envelopeHeaderSchema,
  eventFiltersSchema,
  parseEnvelope,
  type EventEnvelope,
  type EventFilters,
  type NewEnvelope,
} from './events/envelope';
