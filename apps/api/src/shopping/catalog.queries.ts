import { sql } from '@storage/persistence';

/**
 * Read queries whose JSON PostgreSQL builds itself. Shared with the benchmark's bare server
 * (apps/api/bench), which must run exactly the same SQL, as the same named prepared statement.
 */

/** Operation 4. $1 facility, $2 portfolio. One row when the facility is in the portfolio, none otherwise. */
const COVERAGES_SQL = `
SELECT coalesce((
  SELECT json_agg(json_build_object(
    'coverageUuid', c.uuid, 'itemTypeUuid', c.item_type_uuid, 'premiumInPennies', c.premium_in_pennies,
    'coverageAmountInPennies', c.coverage_amount_in_pennies, 'description', c.description, 'provider', c.provider,
    'allowManualChanges', c.allow_manual_changes, 'providerDescription', c.provider_description, 'isDefault', c.is_default
  ) ORDER BY c.is_default DESC, c.premium_in_pennies, c.uuid)
  FROM coverages c WHERE c.facility_uuid = f.uuid), '[]')::text AS body
FROM facilities f WHERE f.uuid = $1 AND f.portfolio_uuid = $2`;

export const COVERAGES_STATEMENT = sql<{ body: string }, [string, string]>(COVERAGES_SQL, { prepared: 'api_op4_coverages' });
