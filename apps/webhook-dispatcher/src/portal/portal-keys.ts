import type { DataSource } from 'typeorm';
import type { PortalGrant } from '@storage/webhooks';

/**
 * Whether the API key a portal link was issued to may still manage the link's portfolio: not revoked, write scope,
 * reaching the portfolio. Asked on every portal request, so revoking a key ends its sessions at once.
 */
export async function grantKeyActive(dataSource: DataSource, grant: PortalGrant): Promise<boolean> {
  const rows: unknown[] = await dataSource.query(
    `SELECT 1 FROM api_keys k
     WHERE k.uuid = $1 AND k.revoked_at IS NULL AND k.scope = 'write'
       AND (k.portfolio_uuids IS NULL OR EXISTS (SELECT 1 FROM portfolios p WHERE p.portfolio_id = $2 AND p.uuid = ANY (k.portfolio_uuids)))`,
    [grant.apiKeyUuid, grant.portfolio],
  );
  return rows.length > 0;
}
