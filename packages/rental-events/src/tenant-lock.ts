import { query, sql, type Queryable } from '@storage/persistence';

/*
 * Every event of a rental shows its tenant's balance: the sum of all the tenant's rentals' balances. So a writer
 * locks every rental of the tenant before it reads or writes one: a writer of a sibling rental (a late fee, a
 * payment, a move-out) holds it until its commit, and the event is read after it, with its change. Otherwise two
 * writers of two rentals of one tenant each miss the other's change, and no event ever shows the balance the
 * tenant has once both have committed. In uuid order, as billing and the ledger's trigger lock rentals, so two
 * writers never wait for each other.
 */

/** The rentals' tenants' rentals, locked; only of rentals of the facility and portfolio, when given. */
export const LOCK_TENANTS_OF = sql<{ uuid: string }, [rentalRecordUuids: readonly string[], facilityUuid: string | null, portfolioUuid: string | null]>(
  `SELECT uuid FROM rental_records
    WHERE person_uuid IN (SELECT person_uuid FROM rental_records
                           WHERE uuid = ANY($1::uuid[]) AND ($2::uuid IS NULL OR facility_uuid = $2) AND ($3::uuid IS NULL OR portfolio_uuid = $3))
    ORDER BY uuid FOR NO KEY UPDATE`,
  // Prepared: the business-day run sends it with each batch's write, in one round trip.
  { prepared: 'lock_tenants_of' },
);

const LOCK_TENANT = sql<{ uuid: string }, [personUuid: string]>(`SELECT uuid FROM rental_records WHERE person_uuid = $1 ORDER BY uuid FOR NO KEY UPDATE`);

/**
 * Locks every rental of the tenant of the rental `ref` names, before a write of it. False when there is no such
 * rental (of the facility and portfolio, when given): nothing is locked.
 */
export async function lockTenantOf(db: Queryable, ref: { rentalRecordUuid: string; facilityUuid?: string; portfolioUuid?: string }): Promise<boolean> {
  const locked = await query(db, LOCK_TENANTS_OF, [[ref.rentalRecordUuid], ref.facilityUuid ?? null, ref.portfolioUuid ?? null]);
  return locked.length > 0;
}

/** Locks every rental the person has, before a rental is added to them (a move-in). */
export async function lockTenant(db: Queryable, personUuid: string): Promise<void> {
  await query(db, LOCK_TENANT, [personUuid]);
}
