import { query, sql, type Queryable } from '@storage/persistence';

const DELETE_RENTALS = sql<never, [portfolioUuid: string]>('DELETE FROM rental_records WHERE portfolio_uuid = $1');

/**
 * Deletes every rental of the portfolio, and by their foreign keys everything that is a part of one (services,
 * coverage history, gate codes, vehicles, rent changes, promotions, its ledger and payments, delinquency state):
 * for a caller removing the portfolio (the demo seed replacing it). Their units' occupancy is counted down by the
 * triggers; the units themselves are left to their owner.
 */
export async function forgetRentals(db: Queryable, portfolioUuid: string): Promise<void> {
  await query(db, DELETE_RENTALS, [portfolioUuid]);
}
