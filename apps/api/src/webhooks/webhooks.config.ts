import { z } from 'zod';
import { loadConfig } from '@storage/platform';
import { portalTokenSecret, webhookSettingsVariables } from '@storage/webhooks';

/**
 * The api's webhook settings (operations 15 to 20), validated at boot with the rest of the api's config.
 * PORTAL_TOKEN_SECRET must equal the dispatcher's (it checks the links the api signs).
 */
export const webhooksConfigSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    DISPATCHER_PORT: z.coerce.number().int().min(1).max(65_535).default(3001),
    /** Where the dispatcher serves the portal; links of operation 20 start with it. */
    PORTAL_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    ...webhookSettingsVariables,
  })
  .transform((config, context) => {
    const portal = portalTokenSecret(config.NODE_ENV, config.PORTAL_TOKEN_SECRET);
    if ('error' in portal) {
      context.addIssue({ code: 'custom', path: ['PORTAL_TOKEN_SECRET'], message: portal.error });
      return z.NEVER;
    }
    return {
      portalTokenSecret: portal.secret,
      portalBaseUrl: (config.PORTAL_BASE_URL ?? `http://localhost:${config.DISPATCHER_PORT}`).replace(/\/+$/, ''),
      allowedSubnets: config.WEBHOOK_ALLOWED_SUBNETS,
    };
  });

export type WebhooksConfig = z.infer<typeof webhooksConfigSchema>;

export const loadWebhooksConfig = (env: NodeJS.ProcessEnv = process.env): WebhooksConfig => loadConfig(webhooksConfigSchema, env);
