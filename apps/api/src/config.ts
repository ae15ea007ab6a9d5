import { z } from 'zod';
import { commonConfigSchema, ConfigError, loadConfig, portSchema } from '@storage/platform';
import { loadWebhooksConfig, type WebhooksConfig } from './webhooks/webhooks.config';

export const configSchema = commonConfigSchema
  .extend({
    API_PORT: portSchema(3000),
    /** Where tenants reach this service; signing links in notifications start with it. */
    PUBLIC_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  })
  .transform((config) => ({ ...config, PUBLIC_BASE_URL: (config.PUBLIC_BASE_URL ?? `http://localhost:${config.API_PORT}`).replace(/\/+$/, '') }));

export type Config = z.infer<typeof configSchema> & { webhooks: WebhooksConfig };

/** The api's settings and those of its webhook operations, validated together so every bad variable is named at once. */
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
  if (!core || !webhooks) throw new ConfigError(problems);
  return { ...core, webhooks };
}
