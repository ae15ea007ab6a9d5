import type { DataSource } from 'typeorm';
import { query, sql } from '@storage/persistence';
import type { PortalGrant } from '@storage/webhooks';

const ACTIVE_WRITE_KEY = sql<{ '?column?': number }, [string, string]>(
  `SELECT 1 FROM api_keys k
     WHERE k.uuid = $1 AND k.revoked_at IS NULL AND k.scope = 'write'
       AND (k.portfolio_uuids IS NULL OR EXISTS (SELECT 1 FROM portfolios p WHERE p.portfolio_id = $2 AND p.uuid = ANY (k.portfolio_uuids)))`,
);

/**
 * Whether the API key a portal link (or a listen grant) was issued to may still manage the portfolio: not revoked, write scope,
 * reaching the portfolio. Asked on every portal request, so revoking a key ends its sessions at once.
 */
export async function grantKeyActive(dataSource: DataSource, grant: Pick<PortalGrant, 'portfolio' | 'apiKeyUuid'>): Promise<boolean> {
  const rows = await query(dataSource, ACTIVE_WRITE_KEY, [grant.apiKeyUuid, grant.portfolio]);
  return rows.length > 0;
}
