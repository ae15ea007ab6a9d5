import { z } from 'zod';
import { CONNECTION_URL_RULE, isConnectionUrl, isPort, PORT_RULE } from '@storage/persistence';

/** Raised when the environment does not describe a runnable service; the message names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const port = (fallback: number) => z.coerce.number({ error: PORT_RULE }).refine(isPort, PORT_RULE).default(fallback);

const RETENTION_DAYS_RULE = 'must be a whole number of days from 0 (keep forever) to 3650';
const retentionDays = z.coerce
  .number({ error: RETENTION_DAYS_RULE })
  .int(RETENTION_DAYS_RULE)
  .min(0, RETENTION_DAYS_RULE)
  .max(3_650, RETENTION_DAYS_RULE)
  .default(7);

/** Variables every service reads. Secrets are never logged: only their presence is. */
export const commonConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('.data'),
  // Checked as pg will parse it, so a URL it cannot read stops the boot here and not with a driver error.
  DATABASE_URL: z.string().refine(isConnectionUrl, CONNECTION_URL_RULE).optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * The interface the HTTP server listens on: the loopback one by default, so a developer's services are not open
   * to the network; container images set 0.0.0.0.
   */
  HOST: z
    .string()
    .regex(/^[\w.:-]{1,253}$/, 'must be an IP address or a host name (0.0.0.0 for every interface)')
    .default('127.0.0.1'),
  /**
   * Whose X-Forwarded-For to believe (Fastify's trustProxy): unset, nobody, so a client reached directly cannot
   * name itself another address per request (the lease pages' rate limit is per address); a hop count (1 behind
   * one ingress) or the proxies' addresses and CIDRs.
   */
  TRUST_PROXY: z
    .string()
    .regex(/^(\d{1,2}|[\w.:/]+(,[\w.:/]+)*)$/, 'must be a number of proxy hops or a comma-separated list of proxy addresses or CIDRs')
    .transform((value): number | string => (/^\d+$/.test(value) ? Number(value) : value))
    .optional(),
  KAFKA_BROKERS: z
    .string()
    .regex(/^[\w.-]+:\d+(,[\w.-]+:\d+)*$/, 'must be a comma-separated list of host:port')
    .optional(),
  KAFKA_TOPIC_PARTITIONS: z.coerce.number().int().min(1).max(256).default(3),
  /** Days delivered events stay in the outbox before pruning (Kafka's default retention is 7 days); 0 keeps them forever. */
  OUTBOX_RETENTION_DAYS: retentionDays,
});

export const portSchema = port;

/**
 * The ports named by `defaults` (variable to default), each checked as the service that listens on it checks it, or
 * a ConfigError naming each bad one.
 */
export function loadPorts<Name extends string>(defaults: Record<Name, number>, env: NodeJS.ProcessEnv = process.env): Record<Name, number> {
  const schema = z.object(Object.fromEntries(Object.entries<number>(defaults).map(([name, fallback]) => [name, port(fallback)])));
  return loadConfig(schema, env) as Record<Name, number>;
}

export type CommonConfig = z.infer<typeof commonConfigSchema>;

/**
 * Parses the environment with a service's schema, or throws a ConfigError naming each variable at fault and the
 * rule it breaks. The rejected value is never quoted: it may be a secret or carry one (a URL's password), and an
 * error goes to logs that many can read.
 */
export function loadConfig<Schema extends z.ZodType>(schema: Schema, env: NodeJS.ProcessEnv = process.env): z.infer<Schema> {
  // Empty strings count as unset, as they do in most deployment tools.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = schema.safeParse(present);
  if (result.success) return result.data;
  throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
}
