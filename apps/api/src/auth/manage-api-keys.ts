import type { DataSource } from 'typeorm';
import type { ApiKeyScope } from '../model/api-key.entity';
import { query, sql } from '@storage/persistence';

/** A key as operators see it: never the key nor its hash. */
export interface ApiKeyListing {
  uuid: string;
  prefix: string;
  scope: ApiKeyScope;
  label: string;
  /** Portfolio ids it reaches; null: all. */
  portfolios: string[] | null;
  createdAt: Date;
  revokedAt: Date | null;
}

/** No portfolio has the id given, or no key (or more than one) answers to it: the caller named something wrong. */
export class NotFound extends Error {
  override readonly name = 'NotFound';
}

/** The keys reaching `portfolioId` (those reaching every portfolio included), or every key; oldest first. */
export async function listApiKeys(dataSource: DataSource, portfolioId?: string): Promise<ApiKeyListing[]> {
  if (portfolioId !== undefined) await assertPortfolios(dataSource, [portfolioId]);
  return query(
    dataSource,
    sql<ApiKeyListing, [string | null]>(`SELECT k.uuid, k.key_prefix AS prefix, k.scope, k.label, k.created_at AS "createdAt", k.revoked_at AS "revokedAt",
            CASE WHEN k.portfolio_uuids IS NULL THEN NULL
                 ELSE coalesce((SELECT array_agg(p.portfolio_id ORDER BY p.portfolio_id) FROM portfolios p WHERE p.uuid = ANY(k.portfolio_uuids)), '{}') END AS portfolios
       FROM api_keys k
      WHERE $1::text IS NULL OR k.portfolio_uuids IS NULL
         OR (SELECT uuid FROM portfolios WHERE portfolio_id = $1) = ANY(k.portfolio_uuids)
      ORDER BY k.created_at, k.uuid`),
    [portfolioId ?? null],
  );
}

/** Refuses (NotFound) portfolio ids that name no portfolio. */
export async function assertPortfolios(dataSource: DataSource, portfolioIds: string[]): Promise<void> {
  const rows = await query(dataSource, sql<{ id: string }, [string[]]>('SELECT portfolio_id AS id FROM portfolios WHERE portfolio_id = ANY($1::text[])'), [
    portfolioIds,
  ]);
  const missing = portfolioIds.filter((id) => !rows.some((row) => row.id === id));
  if (missing.length > 0) throw new NotFound(`Unknown portfolio: ${missing.join(', ')}`);
}

/**
 * Revokes the key whose uuid or prefix (`sk_…`, as `api-keys list` shows it) is `id`; an ambiguous prefix is
 * refused. Revoking a revoked key keeps its first revocation time. The api stops accepting it within its
 * key cache's lifetime (ApiKeyService, 10 s).
 */
export async function revokeApiKey(dataSource: DataSource, id: string): Promise<ApiKeyListing> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
  const matches = (await listApiKeys(dataSource)).filter((key) => (isUuid ? key.uuid === id.toLowerCase() : key.prefix === id));
  if (matches.length !== 1) {
    throw new NotFound(
      matches.length === 0 ? `No API key has the id or prefix "${id}" (see api-keys list)` : `Several keys have the prefix "${id}": give the uuid`,
    );
  }
  const [revoked] = await query(
    dataSource,
    sql<{ revokedAt: Date }, [string]>('UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE uuid = $1 RETURNING revoked_at AS "revokedAt"'),
    [matches[0].uuid],
  );
  return { ...matches[0], revokedAt: revoked.revokedAt };
}
