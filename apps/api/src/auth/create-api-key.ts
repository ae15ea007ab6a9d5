import type { DataSource } from 'typeorm';
import type { ApiKeyScope } from '../model/api-key.entity';
import { API_KEY_PREFIX, generateApiKey, hashApiKey } from './api-key';
import { query, sql } from '@storage/persistence';

export interface NewApiKey {
  /** Portfolio ids (the `{portfolio}` segment); null reaches every portfolio. */
  portfolioIds: string[] | null;
  scope: ApiKeyScope;
  label?: string;
  /** A chosen key (DEMO_API_KEY); otherwise a random one. */
  key?: string;
}

/** Stores a key's hash and returns the key, the only time it is visible. */
export async function createApiKey(dataSource: DataSource, options: NewApiKey): Promise<{ key: string; uuid: string }> {
  // An admin key creates portfolios, so a set of them cannot bound it.
  if (options.scope === 'admin' && options.portfolioIds !== null) throw new Error('An admin key reaches every portfolio: give no portfolio');
  let portfolioUuids: string[] | null = null;
  if (options.portfolioIds !== null) {
    const rows = await query(
      dataSource,
      sql<{ uuid: string; portfolio_id: string }, [string[]]>('SELECT uuid, portfolio_id FROM portfolios WHERE portfolio_id = ANY($1::text[])'),
      [options.portfolioIds],
    );
    const missing = options.portfolioIds.filter((id) => !rows.some((row) => row.portfolio_id === id));
    if (missing.length > 0) throw new Error(`Unknown portfolio: ${missing.join(', ')}`);
    portfolioUuids = rows.map((row) => row.uuid);
  }
  const key = options.key ?? generateApiKey();
  if (!key.startsWith(API_KEY_PREFIX) || key.length < 20) throw new Error(`An API key starts with ${API_KEY_PREFIX} and has at least 20 characters`);
  const rows = await query(
    dataSource,
    sql<
      { uuid: string },
      [string, string, string, string, string[] | null]
    >(`INSERT INTO api_keys (key_hash, key_prefix, label, scope, portfolio_uuids) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (key_hash) DO UPDATE SET scope = EXCLUDED.scope, portfolio_uuids = EXCLUDED.portfolio_uuids, revoked_at = NULL
     RETURNING uuid`),
    [hashApiKey(key), key.slice(0, 8), options.label ?? '', options.scope, portfolioUuids],
  );
  return { key, uuid: rows[0].uuid };
}
