import { z } from 'zod';

/** Redeliver an endpoint's failed messages since a time (portal action). */
export const webhookRecoverPayloadSchema = z.object({
  endpointId: z.string().min(1),
  since: z.iso.datetime(),
});
export type WebhookRecoverPayload = z.infer<typeof webhookRecoverPayloadSchema>;
