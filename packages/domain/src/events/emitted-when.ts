import type { EventType } from './event-types';

/** When each event is emitted (spec 6.1 for the public ones). */
export const EVENT_EMITTED_WHEN: Record<EventType, string> = {
  'moved-in': 'A lead signs the lease and is converted to a tenant.',
  'moved-out': 'A move-out is completed: by the operator, or by a completed auction.',
  'rent-change': 'A rent modification is applied to an active rental.',
  'delinquency-status-change': 'A payment is missed and the account becomes overdue; a payment resolves delinquency; delinquency stages advance.',
  'recurring-service-change': 'Services are added during or after move-in, or removed from an active rental.',
  auction: 'An auction is created, scheduled, updated, canceled or completed.',
  transfer: 'A tenant transfer to a different unit is completed.',
  'payment-recorded': "A payment is recorded against a rental's ledger (operator, autopay).",
  'charge-posted': "A charge is posted to a rental's ledger (move-in, billing day, late fee), net of its promotions.",
  'payment-declined': "A rental's autopay charge was declined by the payment processor.",
  'webhook-test-event': 'Operation 19: send a test event to the endpoints of a portfolio (internal command).',
  'webhook-resend': '`npm run cli -- webhooks resend` resends a message (internal command).',
  'webhook-recover': "`npm run cli -- webhooks recover` redelivers an endpoint's failed messages since a time (internal command).",
};
