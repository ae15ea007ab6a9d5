import type { z } from 'zod';
import { chargePostedPayloadSchema } from './billing/charge-posted';
import { paymentDeclinedPayloadSchema } from './billing/payment-declined';
import { paymentRecordedPayloadSchema } from './billing/payment-recorded';
import type { EventType, PublicEventType } from './event-types';
import { InvalidEvent } from './invalid-event';
import { auctionPayloadSchema } from './tenant-lifecycle/auction';
import { delinquencyStatusChangePayloadSchema } from './tenant-lifecycle/delinquency-status-change';
import { movedInPayloadSchema } from './tenant-lifecycle/moved-in';
import { movedOutPayloadSchema } from './tenant-lifecycle/moved-out';
import { recurringServiceChangePayloadSchema } from './tenant-lifecycle/recurring-service-change';
import { rentChangePayloadSchema } from './tenant-lifecycle/rent-change';
import { transferPayloadSchema } from './tenant-lifecycle/transfer';
import { BILLING_TOPIC, TENANT_LIFECYCLE_TOPIC, WEBHOOK_COMMANDS_TOPIC, type Topic } from './topics';
import { webhookRecoverPayloadSchema } from './webhook-commands/webhook-recover';
import { webhookResendPayloadSchema } from './webhook-commands/webhook-resend';
import { webhookTestEventPayloadSchema } from './webhook-commands/webhook-test-event';

/** The runtime schema of every event type's payload. */
export const EVENT_PAYLOAD_SCHEMAS = {
  'moved-in': movedInPayloadSchema,
  'moved-out': movedOutPayloadSchema,
  'rent-change': rentChangePayloadSchema,
  'delinquency-status-change': delinquencyStatusChangePayloadSchema,
  'recurring-service-change': recurringServiceChangePayloadSchema,
  auction: auctionPayloadSchema,
  transfer: transferPayloadSchema,
  'payment-recorded': paymentRecordedPayloadSchema,
  'charge-posted': chargePostedPayloadSchema,
  'payment-declined': paymentDeclinedPayloadSchema,
  'webhook-test-event': webhookTestEventPayloadSchema,
  'webhook-resend': webhookResendPayloadSchema,
  'webhook-recover': webhookRecoverPayloadSchema,
} as const satisfies Record<EventType, z.ZodType>;

/** Event type → payload type, so a handler's argument follows from the event it handles. */
export type EventPayloads = { [T in EventType]: z.infer<(typeof EVENT_PAYLOAD_SCHEMAS)[T]> };

/** Any public event's payload, discriminated by `event`. */
export type PublicEventPayload = EventPayloads[PublicEventType];

/** The topic each event type is published on. */
export const EVENT_TOPIC = {
  'moved-in': TENANT_LIFECYCLE_TOPIC,
  'moved-out': TENANT_LIFECYCLE_TOPIC,
  'rent-change': TENANT_LIFECYCLE_TOPIC,
  'delinquency-status-change': TENANT_LIFECYCLE_TOPIC,
  'recurring-service-change': TENANT_LIFECYCLE_TOPIC,
  auction: TENANT_LIFECYCLE_TOPIC,
  transfer: TENANT_LIFECYCLE_TOPIC,
  'payment-recorded': BILLING_TOPIC,
  'charge-posted': BILLING_TOPIC,
  'payment-declined': BILLING_TOPIC,
  'webhook-test-event': WEBHOOK_COMMANDS_TOPIC,
  'webhook-resend': WEBHOOK_COMMANDS_TOPIC,
  'webhook-recover': WEBHOOK_COMMANDS_TOPIC,
} as const satisfies Record<EventType, Topic>;
export type EventTopic<T extends EventType = EventType> = (typeof EVENT_TOPIC)[T];

export function topicFor<T extends EventType>(type: T): EventTopic<T> {
  return EVENT_TOPIC[type];
}

/** The payload validated against its type's schema; throws InvalidEvent with paths under `payload`. */
export function parseEventPayload<T extends EventType>(type: T, raw: unknown): EventPayloads[T] {
  const schema: z.ZodType = EVENT_PAYLOAD_SCHEMAS[type];
  const result = schema.safeParse(raw);
  if (!result.success) throw new InvalidEvent(result.error.issues.map((issue) => ({ ...issue, path: ['payload', ...issue.path] })));
  // The schema looked up by `type` produced this value, so it has that type's payload shape.
  return result.data as EventPayloads[T];
}
