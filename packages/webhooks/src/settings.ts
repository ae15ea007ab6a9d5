import { z } from 'zod';
import { parseSubnetList } from './address-policy';
import type { Cidr } from './ip-address';
import { MIN_PORTAL_TOKEN_SECRET_LENGTH } from './portal-secret';

/**
 * Environment variables read by both the api (operations 15 to 20) and the dispatcher, validated the same way.
 */
export const webhookSettingsVariables = {
  /** Signs and checks portal links (operation 20): the api signs them, the dispatcher checks them. */
  PORTAL_TOKEN_SECRET: z
    .string()
    .min(MIN_PORTAL_TOKEN_SECRET_LENGTH, `must be at least ${MIN_PORTAL_TOKEN_SECRET_LENGTH} characters`)
    .optional(),
  /** Local development and tests only: subnets a webhook target may use although they are not global. */
  WEBHOOK_ALLOWED_SUBNETS: z
    .string()
    .default('')
    .transform((text, context): Cidr[] => {
      try {
        return parseSubnetList(text);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
};
