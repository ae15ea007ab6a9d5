/** The seven public events of spec 6.1, delivered to webhooks; the only names subscriptions accept. */
export const PUBLIC_EVENT_TYPES = [
  'moved-in',
  'moved-out',
  'rent-change',
  'delinquency-status-change',
  'recurring-service-change',
  'auction',
  'transfer',
] as const;
export type PublicEventType = (typeof PUBLIC_EVENT_TYPES)[number];

/** Internal billing facts. */
export const BILLING_EVENT_TYPES = ['payment-recorded', 'charge-posted', 'payment-declined'] as const;
export type BillingEventType = (typeof BILLING_EVENT_TYPES)[number];

/** Internal commands for the webhook dispatcher. */
export const WEBHOOK_COMMAND_TYPES = ['webhook-test-event', 'webhook-resend', 'webhook-recover'] as const;
export type WebhookCommandType = (typeof WEBHOOK_COMMAND_TYPES)[number];

export const EVENT_TYPES = [...PUBLIC_EVENT_TYPES, ...BILLING_EVENT_TYPES, ...WEBHOOK_COMMAND_TYPES] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(s: unknown): s is EventType {
  return (EVENT_TYPES as readonly unknown[]).includes(s);
}

export function isPublicEventType(s: unknown): s is PublicEventType {
  return (PUBLIC_EVENT_TYPES as readonly unknown[]).includes(s);
}
