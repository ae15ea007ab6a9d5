import { query, sql, type Queryable } from '@storage/persistence';

/** Which rental an operation is about; facility and portfolio, when given, must match (else it is not found). */
export interface RentalRef {
  rentalRecordUuid: string;
  facilityUuid?: string;
  portfolioUuid?: string;
}

/*
 * The one lock of a rental, taken before any read that decides a write of it (lifecycle actions, delinquency,
 * auctions, a versioned write that lost its version): every rental of its tenant, FOR NO KEY UPDATE. Every event of
 * a rental shows its tenant's balance (the sum of all the tenant's rentals' balances), so a writer of a sibling
 * rental (a late fee, a payment, a move-out) holds it until its commit, and the event is read after it, with its
 * change; otherwise two writers of two rentals of one tenant each miss the other's change, and no event ever shows
 * the balance the tenant has once both have committed. In uuid order, as billing, the batched writes and the
 * ledger's trigger lock rentals, so two writers never wait for each other. What the lock's holder decides from is
 * read by a statement after the lock: one that waited for it would see the snapshot from before the holder's commit.
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

/** Locks the rental `ref` names, with its tenant's other rentals. False when there is no such rental: nothing is locked. */
export async function lockRental(db: Queryable, ref: RentalRef): Promise<boolean> {
  const locked = await query(db, LOCK_TENANTS_OF, [[ref.rentalRecordUuid], ref.facilityUuid ?? null, ref.portfolioUuid ?? null]);
  return locked.length > 0;
}

/** The same lock before a rental is added to the person (a move-in): every rental they have. */
export async function lockTenant(db: Queryable, personUuid: string): Promise<void> {
  await query(db, LOCK_TENANT, [personUuid]);
}
