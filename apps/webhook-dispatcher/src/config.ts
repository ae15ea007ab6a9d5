import { z } from 'zod';
import { commonConfigSchema, loadConfig, portSchema } from '@storage/platform';
import { MIN_PORTAL_TOKEN_SECRET_LENGTH, parseSubnetList, portalTokenSecret, type Cidr } from '@storage/webhooks';

export const configSchema = commonConfigSchema
  .extend({
    DISPATCHER_PORT: portSchema(3001),
    /** Signs and checks portal links (operation 20); the api signs them with the same secret. */
    PORTAL_TOKEN_SECRET: z.string().min(MIN_PORTAL_TOKEN_SECRET_LENGTH, `must be at least ${MIN_PORTAL_TOKEN_SECRET_LENGTH} characters`).optional(),
    /** Local development and tests only: subnets webhooks may reach although they are not global. */
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
    /** Deliveries in flight at once from this replica. */
    /** The consumer group of the event transport; its own value only where several runs share one broker (tests). */
    DISPATCHER_CONSUMER_GROUP: z.string().regex(/^[\w.-]{1,100}$/, 'letters, digits, ".", "_" or "-"').default('webhook-dispatcher'),
    WEBHOOK_DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(2_000).default(256),
  })
  .transform((config, context) => {
    const portal = portalTokenSecret(config.NODE_ENV, config.PORTAL_TOKEN_SECRET);
    if ('error' in portal) {
      context.addIssue({ code: 'custom', path: ['PORTAL_TOKEN_SECRET'], message: portal.error });
      return z.NEVER;
    }
    return { ...config, PORTAL_TOKEN_SECRET: portal.secret };
  });

export type Config = z.infer<typeof configSchema>;

export const loadServiceConfig = (env: NodeJS.ProcessEnv = process.env): Config => loadConfig(configSchema, env);
