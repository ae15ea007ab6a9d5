import type { BasePayload, BillingPromotion, EventFilters } from '@storage/domain';
import { fragment, query, sql, type Queryable } from '@storage/persistence';

/** Everything a tenant lifecycle event of one rental carries besides its event name, id and added object. */
export interface RentalEventContext {
  /** The portfolio identifier (`portfolioId`, the `{portfolio}` path segment) the event belongs to. */
  portfolio: string;
  base: Omit<BasePayload, 'event' | 'eventId'>;
  /** The webhook filters besides the facility, which the envelope takes from the payload. */
  filters: Pick<EventFilters, 'unitType' | 'amenityUuids'>;
}

/** The columns of RENTAL_EVENT_CONTEXT_COLUMNS, as a row. */
export interface RentalEventContextRow {
  rental_record_uuid: string;
  person_uuid: string;
  unit_group_uuid: string;
  unit_uuid: string;
  facility_uuid: string;
  balance_in_pennies: number;
  start_date: string;
  end_date: string | null;
  rent_in_pennies: number;
  billing_day_of_month: number;
  next_due_date: string;
  tenant_balance_in_pennies: string;
  first_name: string;
  last_name: string;
  phone: string | null;
  is_sms_enrolled: boolean;
  email: string | null;
  portfolio_id: string;
  unit_type_uuid: string | null;
  amenity_uuids: string[];
  services: { description: string; amount: number; feeType: 'FIXED_AMOUNT' | 'PERCENTAGE'; itemTypeUuid: string }[];
  promotions: BillingPromotion[];
}

/*
 * The whole payload in one statement. The tenant balance sums the person's active rentals (and this one,
 * which may have just moved out). Services are those not ended at the facility's local date. Promotions are
 * those recorded for the rental at signing (or carried by a transfer), rent first, then by item type; one
 * lookup on rental_promotions' (rental_record_uuid, promotion_uuid) index. They are written only in the
 * transaction that creates the rental, so the rental row's version covers them. Columns and
 * joins are over `rental_records r` (with `facilities f`), so a caller can read the context in a statement
 * of its own (the delinquency run reads it with the rental's state, in one round trip).
 */
export const RENTAL_EVENT_CONTEXT_COLUMNS = fragment(`
       r.uuid AS rental_record_uuid, r.person_uuid, r.unit_group_uuid, r.unit_uuid, r.facility_uuid,
       r.balance_in_pennies, r.start_date::text AS start_date, r.end_date::text AS end_date, r.rent_in_pennies,
       r.billing_day_of_month, r.next_due_date::text AS next_due_date,
       (SELECT COALESCE(sum(t.balance_in_pennies), 0)::text FROM rental_records t
         WHERE t.person_uuid = r.person_uuid AND (t.status = 'ACTIVE' OR t.uuid = r.uuid)) AS tenant_balance_in_pennies,
       p.first_name, p.last_name, p.phone, p.is_sms_enrolled, p.email,
       pf.portfolio_id, stg.unit_type_uuid,
       ARRAY(SELECT a.amenity_uuid::text FROM unit_group_amenities a
              WHERE a.unit_group_uuid = r.unit_group_uuid ORDER BY a.amenity_uuid) AS amenity_uuids,
       COALESCE((SELECT json_agg(json_build_object('description', s.description, 'amount', s.amount_in_pennies,
                                                   'feeType', s.fee_type, 'itemTypeUuid', s.item_type_uuid)
                                 ORDER BY s.start_date, s.uuid)
                   FROM rental_services s
                  WHERE s.rental_record_uuid = r.uuid
                    AND (s.end_date IS NULL OR s.end_date > (now() AT TIME ZONE f.time_zone)::date)), '[]'::json) AS services,
       COALESCE((SELECT json_agg(json_build_object('promotionUuid', ap.promotion_uuid, 'promotionName', ap.name,
                                                   'discountType', ap.discount_type, 'monthStarts', ap.month_starts,
                                                   'durationInMonths', ap.duration_in_months,
                                                   'discountAmountInPennies', ap.discount_in_pennies, 'itemTypeUuid', ap.item_type_uuid)
                                 ORDER BY ap.item_type_uuid NULLS FIRST, ap.promotion_uuid)
                   FROM rental_promotions ap WHERE ap.rental_record_uuid = r.uuid), '[]'::json) AS promotions`);

export const RENTAL_EVENT_CONTEXT_JOINS = fragment(`
  JOIN persons p ON p.uuid = r.person_uuid
  JOIN portfolios pf ON pf.uuid = r.portfolio_uuid
  JOIN facilities f ON f.uuid = r.facility_uuid
  JOIN unit_groups g ON g.uuid = r.unit_group_uuid
  LEFT JOIN size_and_type_groups stg ON stg.uuid = g.size_and_type_group_uuid`);

const CONTEXT = sql<RentalEventContextRow, [string]>(`SELECT ${RENTAL_EVENT_CONTEXT_COLUMNS}
  FROM rental_records r ${RENTAL_EVENT_CONTEXT_JOINS}
 WHERE r.uuid = $1`);

/**
 * Reads a rental's event context as it is now in `db` (pass the transaction's manager to see its own
 * writes). Null when the rental does not exist.
 */
export async function loadRentalEventContext(db: Queryable, rentalRecordUuid: string): Promise<RentalEventContext | null> {
  const [row] = await query(db, CONTEXT, [rentalRecordUuid]);
  return row ? rentalEventContextOf(row) : null;
}

export function rentalEventContextOf(row: RentalEventContextRow): RentalEventContext {
  return {
    portfolio: row.portfolio_id,
    base: {
      tenantUuid: row.person_uuid,
      unitRental: {
        rentalRecordUuid: row.rental_record_uuid,
        unitGroupUuid: row.unit_group_uuid,
        unitUuid: row.unit_uuid,
        facilityUuid: row.facility_uuid,
        rentalBalance: row.balance_in_pennies,
        startRentDate: row.start_date,
        endRentDate: row.end_date,
      },
      billingTemplate: {
        currentRentInPennies: row.rent_in_pennies,
        additionalServicesAndFees: row.services,
        promotions: row.promotions,
        billingDayOfMonth: row.billing_day_of_month,
        nextDueDate: row.next_due_date,
      },
      tenantBalanceInPennies: Number(row.tenant_balance_in_pennies),
      primaryContact: {
        firstName: row.first_name,
        lastName: row.last_name,
        phone: row.phone ?? '',
        isSMSEnrolled: row.is_sms_enrolled,
        email: row.email ?? '',
      },
    },
    filters: { unitType: row.unit_type_uuid, amenityUuids: row.amenity_uuids },
  };
}
