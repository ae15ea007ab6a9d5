import { z } from 'zod';
import { commonConfigSchema, loadConfig } from '@storage/platform';
import { webhookSecrets, webhookSettingsVariables } from '@storage/webhooks';

/**
 * The api's webhook settings (operations 15 to 20), validated at boot with the rest of the api's config.
 * PORTAL_TOKEN_SECRET must equal the dispatcher's (it checks the links the api signs); so must WEBHOOK_SECRET_KEYS
 * (it opens the secrets the api seals), or, when unset, DATA_DIR (where the generated key is kept).
 */
export const webhooksConfigSchema = z
  .object({
    NODE_ENV: commonConfigSchema.shape.NODE_ENV,
    DATA_DIR: commonConfigSchema.shape.DATA_DIR,
    DISPATCHER_PORT: z.coerce.number().int().min(1).max(65_535).default(3001),
    /** Where the dispatcher serves the portal; links of operation 20 start with it. */
    PORTAL_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    ...webhookSettingsVariables,
  })
  .transform((config, context) => {
    const secrets = webhookSecrets(config, context);
    if (!secrets) return z.NEVER;
    return {
      portalTokenSecret: secrets.portalTokenSecret,
      portalBaseUrl: (config.PORTAL_BASE_URL ?? `http://localhost:${config.DISPATCHER_PORT}`).replace(/\/+$/, ''),
      allowedSubnets: config.WEBHOOK_ALLOWED_SUBNETS,
      secretKeys: secrets.secretKeys,
    };
  });

export type WebhooksConfig = z.infer<typeof webhooksConfigSchema>;

export const loadWebhooksConfig = (env: NodeJS.ProcessEnv = process.env): WebhooksConfig => loadConfig(webhooksConfigSchema, env);
