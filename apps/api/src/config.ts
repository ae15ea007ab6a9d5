import { z } from 'zod';
import { commonConfigSchema, loadConfig, portSchema } from '@storage/platform';

export const configSchema = commonConfigSchema.extend({
  API_PORT: portSchema(3000),
});

export type Config = z.infer<typeof configSchema>;

export const loadServiceConfig = (env: NodeJS.ProcessEnv = process.env): Config => loadConfig(configSchema, env);
