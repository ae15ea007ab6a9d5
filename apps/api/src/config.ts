import { z } from 'zod';
import { commonConfigSchema, loadConfig, portSchema } from '@storage/platform';

export const configSchema = commonConfigSchema
  .extend({
    API_PORT: portSchema(3000),
    /** Where tenants reach this service; signing links in notifications start with it. */
    PUBLIC_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  })
  .transform((config) => ({ ...config, PUBLIC_BASE_URL: (config.PUBLIC_BASE_URL ?? `http://localhost:${config.API_PORT}`).replace(/\/+$/, '') }));

export type Config = z.infer<typeof configSchema>;

export const loadServiceConfig = (env: NodeJS.ProcessEnv = process.env): Config => loadConfig(configSchema, env);
