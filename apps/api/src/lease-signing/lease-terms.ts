import type { EntityManager } from 'typeorm';
import type { LeaseStatus } from '../model/lease.entity';
import { query, sql } from '@storage/persistence';
import { hashSigningToken } from './signing-token';

/** A lease can be signed for this long after it was (last) sent; then operation 13 sends it again. */
export const LEASE_VALIDITY_DAYS = 30;

/** Everything the lease page shows, from the lease, its lead, facility and unit group. */
export interface LeaseTerms {
  leaseUuid: string;
  status: LeaseStatus;
  expired: boolean;
  portfolioUuid: string;
  leadUuid: string;
  /** The lead's person, who becomes the tenant. */
  personUuid: string;
  isForBusiness: boolean;
  tenantName: string;
  facilityUuid: string;
  facilityName: string;
  facilityAddress: string;
  facilityPhone: string;
  /** The calendar day at the facility now: a rental signed now starts on it. */
  facilityToday: string;
  unitGroupUuid: string;
  unitGroupDescription: string;
  unitSize: string;
  unitType: string;
  rentInPennies: number;
  vacantUnits: number;
  coverage: DefaultCoverage | null;
}

/** The facility's default coverage: enrolled at signing, billed monthly as a service. */
export interface DefaultCoverage {
  coverageUuid: string;
  itemTypeUuid: string;
  itemTypeName: string;
  description: string;
  premiumInPennies: number;
  coverageAmountInPennies: number;
}

const TERMS_SQL = `
SELECT s.uuid AS "leaseUuid", s.status, s.sent_at < now() - make_interval(days => ${LEASE_VALIDITY_DAYS}) AS expired,
       l.portfolio_uuid AS "portfolioUuid", l.uuid AS "leadUuid", l.person_uuid AS "personUuid", l.is_for_business AS "isForBusiness",
       concat_ws(' ', p.first_name, p.last_name) AS "tenantName",
       f.uuid AS "facilityUuid", f.name AS "facilityName", f.phone AS "facilityPhone",
       (now() AT TIME ZONE f.time_zone)::date::text AS "facilityToday",
       concat_ws(', ', f.address_line1, f.address_line2, f.city, f.state || ' ' || f.zip) AS "facilityAddress",
       g.uuid AS "unitGroupUuid", g.description AS "unitGroupDescription",
       concat(st.width, '×', st.length) AS "unitSize", coalesce(ut.description, '') AS "unitType", s.rent_in_pennies AS "rentInPennies",
       (SELECT count(*)::int FROM units u WHERE u.unit_group_uuid = g.uuid AND u.status = 'vacant') AS "vacantUnits",
       (SELECT json_build_object('coverageUuid', c.uuid, 'itemTypeUuid', c.item_type_uuid, 'itemTypeName', i.name,
                                 'description', c.description, 'premiumInPennies', c.premium_in_pennies,
                                 'coverageAmountInPennies', c.coverage_amount_in_pennies)
          FROM coverages c JOIN item_types i ON i.uuid = c.item_type_uuid
         WHERE c.facility_uuid = f.uuid AND c.is_default ORDER BY c.uuid LIMIT 1) AS coverage
  FROM leases s
  JOIN leads l ON l.uuid = s.lead_uuid
  JOIN persons p ON p.uuid = l.person_uuid
  JOIN facilities f ON f.uuid = s.facility_uuid
  JOIN unit_groups g ON g.uuid = s.unit_group_uuid
  LEFT JOIN size_and_type_groups st ON st.uuid = g.size_and_type_group_uuid
  LEFT JOIN unit_types ut ON ut.uuid = st.unit_type_uuid
 WHERE s.signing_token_hash = $1`;

/** Signing tokens are base64url (32 random bytes from operation 13); anything else is no token of ours. */
export const isSigningTokenShape = (token: string): boolean => /^[\w-]{1,128}$/.test(token);

/**
 * The lease behind a signing token, or null for an unknown one. With `lock`, the lease and its lead are
 * locked for the caller's transaction, so one signing of a lease waits for another.
 */
export async function loadLeaseTerms(db: EntityManager, token: string, lock = false): Promise<LeaseTerms | null> {
  if (!isSigningTokenShape(token)) return null;
  const rows = await query(db, sql<LeaseTerms, [tokenHash: string]>(lock ? `${TERMS_SQL} FOR UPDATE OF s, l` : TERMS_SQL), [hashSigningToken(token)]);
  return rows[0] ?? null;
}
