import { z } from 'zod';
import { parseSubnetList } from './address-policy';
import type { Cidr } from './ip-address';
import { MIN_PORTAL_TOKEN_SECRET_LENGTH, portalTokenSecret } from './portal-secret';
import type { SecretKey } from './secret-keyring';
import { parseSecretKeys, secretKeysSetting, type SecretKeysSetting } from './secret-keys-setting';

/**
 * Environment variables read by both the api (operations 15 to 20) and the dispatcher, validated the same way.
 */
export const webhookSettingsVariables = {
  /** Signs and checks portal links (operation 20): the api signs them, the dispatcher checks them. */
  PORTAL_TOKEN_SECRET: z.string().min(MIN_PORTAL_TOKEN_SECRET_LENGTH, `must be at least ${MIN_PORTAL_TOKEN_SECRET_LENGTH} characters`).optional(),
  /**
   * Seal endpoint secrets in the database: `id:base64key` entries, the first seals, all open. Problems are reported
   * per entry (`WEBHOOK_SECRET_KEYS.<n>`), so the configuration error never quotes the keys.
   */
  WEBHOOK_SECRET_KEYS: z
    .string()
    .optional()
    .transform((text, context): SecretKey[] | undefined => {
      if (text === undefined) return undefined;
      const parsed = parseSecretKeys(text);
      if ('keys' in parsed) return parsed.keys;
      for (const problem of parsed.problems) context.addIssue({ code: 'custom', path: [problem.entry], message: problem.message });
      return z.NEVER;
    }),
  /** Local development and tests only: subnets a webhook target may use although they are not global. */
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
};

export interface WebhookSecrets {
  portalTokenSecret: string;
  secretKeys: SecretKeysSetting;
}

/**
 * The secrets of both services from their parsed settings, or undefined after adding an issue for each one that
 * is missing (so a production boot names both at once).
 */
export function webhookSecrets(
  config: { NODE_ENV: string; DATA_DIR: string; PORTAL_TOKEN_SECRET?: string | undefined; WEBHOOK_SECRET_KEYS?: SecretKey[] | undefined },
  context: z.RefinementCtx,
): WebhookSecrets | undefined {
  const portal = portalTokenSecret(config.NODE_ENV, config.PORTAL_TOKEN_SECRET);
  const secretKeys = secretKeysSetting(config.NODE_ENV, config.WEBHOOK_SECRET_KEYS, config.DATA_DIR);
  if ('error' in portal) context.addIssue({ code: 'custom', path: ['PORTAL_TOKEN_SECRET'], message: portal.error });
  if ('error' in secretKeys) context.addIssue({ code: 'custom', path: ['WEBHOOK_SECRET_KEYS'], message: secretKeys.error });
  if ('error' in portal || 'error' in secretKeys) return undefined;
  return { portalTokenSecret: portal.secret, secretKeys: secretKeys.setting };
}
