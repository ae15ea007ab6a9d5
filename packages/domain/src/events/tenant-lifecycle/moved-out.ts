import type { z } from 'zod';
import { lifecyclePayloadSchema } from './base-payload';

/** A move-out was processed and completed; base payload only. */
export const movedOutPayloadSchema = lifecyclePayloadSchema('moved-out', {});
export type MovedOutPayload = z.infer<typeof movedOutPayloadSchema>;
