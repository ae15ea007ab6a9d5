import { z } from 'zod';
import { PUBLIC_EVENT_TYPES } from '../event-types';

/** Operation 19: send a test message of this event type to the portfolio's subscribed endpoints. */
export const webhookTestEventPayloadSchema = z.object({
  portfolio: z.string().min(1),
  eventType: z.enum(PUBLIC_EVENT_TYPES),
});
export type WebhookTestEventPayload = z.infer<typeof webhookTestEventPayloadSchema>;
