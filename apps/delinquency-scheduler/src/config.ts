import { z } from 'zod';
import { commonConfigSchema, loadConfig, portSchema } from '@storage/platform';

export const configSchema = commonConfigSchema.extend({
  SCHEDULER_PORT: portSchema(3002),
  /** How often facilities are checked for a new local business date; 0 leaves runs to the CLI. */
  SCHEDULER_TICK_SECONDS: z.coerce.number().int().min(0).max(3_600).default(60),
  /** Rentals worked on at once in a run; keep it below DATABASE_POOL_SIZE (one connection holds the facility lock). */
  SCHEDULER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
});

export type Config = z.infer<typeof configSchema>;

export const loadServiceConfig = (env: NodeJS.ProcessEnv = process.env): Config => loadConfig(configSchema, env);
