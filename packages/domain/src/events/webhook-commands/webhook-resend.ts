import { z } from 'zod';

/** Resend one message (portal action), even if it was delivered. */
export const webhookResendPayloadSchema = z.object({ messageId: z.string().min(1) });
export type WebhookResendPayload = z.infer<typeof webhookResendPayloadSchema>;
