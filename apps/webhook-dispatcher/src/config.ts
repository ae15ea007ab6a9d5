import { z } from 'zod';
import { commonConfigSchema, loadConfig, portSchema } from '@storage/platform';
import { webhookSecrets, webhookSettingsVariables } from '@storage/webhooks';

export const configSchema = commonConfigSchema
  .extend({
    DISPATCHER_PORT: portSchema(3001),
    /** Where browsers reach the portal (the api builds operation 20's links on it): https makes its cookie Secure. */
    PORTAL_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    ...webhookSettingsVariables,
    /** The consumer group of the event transport; its own value only where several runs share one broker (tests). */
    DISPATCHER_CONSUMER_GROUP: z
      .string()
      .regex(/^[\w.-]{1,100}$/, 'letters, digits, ".", "_" or "-"')
      .default('webhook-dispatcher'),
    /** Deliveries in flight at once from this replica. */
    WEBHOOK_DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(2_000).default(256),
    /** How long finished attempts wait to be recorded together, in ms (delivery-engine.ts says what it trades). */
    WEBHOOK_RECORD_WAIT_MS: z.coerce.number().int().min(0).max(10_000).default(100),
  })
  .transform((config, context) => {
    const secrets = webhookSecrets(config, context);
    if (!secrets) return z.NEVER;
    return {
      ...config,
      // As the api defaults it: the portal of a developer's machine.
      PORTAL_BASE_URL: config.PORTAL_BASE_URL ?? `http://localhost:${config.DISPATCHER_PORT}`,
      PORTAL_TOKEN_SECRET: secrets.portalTokenSecret,
      WEBHOOK_SECRET_KEYS: secrets.secretKeys,
    };
  });

export type Config = z.infer<typeof configSchema>;

export const loadServiceConfig = (env: NodeJS.ProcessEnv = process.env): Config => loadConfig(configSchema, env);
