import type { z } from 'zod';
import { lifecyclePayloadSchema } from './base-payload';

/** A lead signed the lease and became a tenant; base payload only. */
export const movedInPayloadSchema = lifecyclePayloadSchema('moved-in', {});
export type MovedInPayload = z.infer<typeof movedInPayloadSchema>;
