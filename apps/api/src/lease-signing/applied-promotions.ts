import type { EntityManager } from 'typeorm';
import type { ShownPromotion } from './lease-page';
import { query, sql } from '@storage/persistence';

// A promotion's terms as rental_promotions freezes them, named alike in `promotions` and `rental_promotions`.
const TERMS = 'name, family, item_type_uuid, discount_type, percentage, amount_in_pennies, month_starts, duration_in_months';

/**
 * Records on the rental the promotions its lease page showed, at the amounts shown and with the promotions'
 * terms as they are now: a later edit of a promotion does not change what the tenant signed for.
 */
export async function recordAppliedPromotions(db: EntityManager, rentalUuid: string, appliedOn: string, shown: ShownPromotion[]): Promise<void> {
  if (shown.length === 0) return;
  await query(
    db,
    sql<
      never,
      [string, string, string[], number[]]
    >(`INSERT INTO rental_promotions (rental_record_uuid, promotion_uuid, ${TERMS}, discount_in_pennies, applied_on)
     SELECT $1, p.uuid, ${TERMS}, s.discount, $2
       FROM unnest($3::uuid[], $4::int[]) AS s(promotion_uuid, discount)
       JOIN promotions p ON p.uuid = s.promotion_uuid`),
    [rentalUuid, appliedOn, shown.map((promotion) => promotion.promotionUuid), shown.map((promotion) => promotion.discountInPennies)],
  );
}

/** A transfer keeps the tenant's promotions as signed for (amounts and signing day included) on the new rental. */
export async function carryAppliedPromotions(db: EntityManager, oldRentalUuid: string, newRentalUuid: string): Promise<void> {
  await query(
    db,
    sql<never, [string, string]>(`INSERT INTO rental_promotions (rental_record_uuid, promotion_uuid, ${TERMS}, discount_in_pennies, applied_on)
     SELECT $2, promotion_uuid, ${TERMS}, discount_in_pennies, applied_on FROM rental_promotions WHERE rental_record_uuid = $1`),
    [oldRentalUuid, newRentalUuid],
  );
}
