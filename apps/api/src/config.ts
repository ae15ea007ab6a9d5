import path from 'node:path';
import { z } from 'zod';
import { commonConfigSchema, ConfigError, loadConfig, portSchema } from '@storage/platform';
import { loadRateLimitConfig, type RateLimitConfig } from './rate-limit';
import { loadWebhooksConfig, type WebhooksConfig } from './webhooks/webhooks.config';

export const configSchema = commonConfigSchema
  .extend({
    API_PORT: portSchema(3000),
    /** Where tenants reach this service; signing links in notifications start with it. */
    PUBLIC_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  })
  .transform((config) => ({
    ...config,
    PUBLIC_BASE_URL: (config.PUBLIC_BASE_URL ?? `http://localhost:${config.API_PORT}`).replace(/\/+$/, ''),
    /**
     * Where the embedded notification adapter drops each message's full text, as a local mail catcher would:
     * `DATA_DIR/mailbox` outside production, none in production (a secret is sent, never kept; a deployment's root
     * filesystem is read-only).
     */
    mailboxDir: config.NODE_ENV === 'production' ? null : path.join(config.DATA_DIR, 'mailbox'),
  }));

export type Config = z.infer<typeof configSchema> & { webhooks: WebhooksConfig; rateLimits: RateLimitConfig };

/** The api's settings, those of its webhook operations and its rate limits, validated together so every bad variable is named at once. */
export function loadServiceConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const attempt = <T>(load: () => T): T | undefined => {
    try {
      return load();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
      return undefined;
    }
  };
  const core = attempt(() => loadConfig(configSchema, env));
  const webhooks = attempt(() => loadWebhooksConfig(env));
  const rateLimits = attempt(() => loadRateLimitConfig(env));
  if (!core || !webhooks || !rateLimits) throw new ConfigError(problems);
  return { ...core, webhooks, rateLimits };
}
