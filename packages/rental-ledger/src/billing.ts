import {
  billingPeriodsDue,
  chargesForPeriod,
  createEnvelope,
  netAmount,
  topicFor,
  type CalendarDate,
  type EventEnvelope,
  type PeriodCharge,
  type PromotionTerms,
  type RentalBillingTerms,
} from '@storage/domain';
import { OUTBOX_CHANNEL, outboxInsert } from '@storage/messaging';
import { query, sql, type Queryable } from '@storage/persistence';
import { entriesJson, periodChargeEntries } from './ledger-entries';

/*
 * Billing: the charges of every period that has come, posted on its due date (rent in advance), and the rental's
 * next due date moved past them, in one statement per batch of rentals. Exactly once per rental and period:
 * the statement locks and writes a rental only while it is as read (its row version, and the next due date the
 * charges were computed from), so a rerun, another replica or a payment in between writes nothing for it and it is
 * read again; and each charge has its charge key (kind, item type, due date), unique per rental in the ledger, so
 * even a write that slipped past the guard could not post a period twice. The rental is updated once: the ledger's
 * trigger adds the entries to its balance and moves its next due date to the end of the latest period charged.
 */

/** A rental's billing terms as stored: the rent and its changes, services with their dates, promotions frozen at signing. */
interface BillingRow {
  uuid: string;
  portfolio_id: string;
  version: string;
  /** The tenancy's start (carried by transfers): it anchors the billing day and the months promotions count. */
  start_date: CalendarDate;
  next_due_date: CalendarDate;
  balance_in_pennies: number;
  rent_in_pennies: number;
  rent_changes: { effectiveDate: CalendarDate; rentInPennies: number; previousRentInPennies: number }[];
  services: {
    description: string;
    amount: number;
    feeType: 'FIXED_AMOUNT' | 'PERCENTAGE';
    itemTypeUuid: string;
    startDate: CalendarDate;
    endDate: CalendarDate | null;
  }[];
  promotions: StoredPromotionTerms[];
}

/** A promotion's terms as stored (in `promotions`, and frozen in `rental_promotions`), read as JSON. */
export type StoredPromotionTerms = Omit<PromotionTerms, 'family' | 'percentage'> & { itemTypeUuid: string | null; percentage: string | null };

/** The domain's terms of a stored promotion: one with an item type discounts that service, one without the rent. */
export function promotionTermsOf({ itemTypeUuid, percentage, ...terms }: StoredPromotionTerms): PromotionTerms {
  return {
    ...terms,
    percentage: percentage === null ? null : Number(percentage),
    family: itemTypeUuid === null ? { kind: 'RENT' } : { kind: 'DISCOUNTED_SERVICE', itemTypeUuid },
  };
}

const TERMS = sql<BillingRow, [readonly string[], CalendarDate]>(
  `
SELECT r.uuid, pf.portfolio_id, r.xmin::text AS version, coalesce(r.tenancy_start_date, r.start_date)::text AS start_date, r.next_due_date::text AS next_due_date,
       r.balance_in_pennies, r.rent_in_pennies,
       COALESCE((SELECT json_agg(json_build_object('effectiveDate', c.effective_date::text, 'rentInPennies', c.rent_in_pennies,
                                                   'previousRentInPennies', c.previous_rent_in_pennies) ORDER BY c.created_at, c.uuid)
                   FROM rental_rent_changes c WHERE c.rental_record_uuid = r.uuid), '[]') AS rent_changes,
       COALESCE((SELECT json_agg(json_build_object('description', s.description, 'amount', s.amount_in_pennies, 'feeType', s.fee_type,
                                                   'itemTypeUuid', s.item_type_uuid, 'startDate', s.start_date::text, 'endDate', s.end_date::text)
                                 ORDER BY s.start_date, s.created_at, s.uuid)
                   FROM rental_services s WHERE s.rental_record_uuid = r.uuid AND (s.end_date IS NULL OR s.end_date > r.next_due_date)), '[]') AS services,
       COALESCE((SELECT json_agg(json_build_object('uuid', p.promotion_uuid, 'name', p.name, 'itemTypeUuid', p.item_type_uuid,
                                                   'discountType', p.discount_type, 'percentage', p.percentage::text, 'amountInPennies', p.amount_in_pennies,
                                                   'monthStarts', p.month_starts, 'durationInMonths', p.duration_in_months)
                                 ORDER BY p.item_type_uuid NULLS FIRST, p.promotion_uuid)
                   FROM rental_promotions p WHERE p.rental_record_uuid = r.uuid), '[]') AS promotions
  FROM rental_records r JOIN portfolios pf ON pf.uuid = r.portfolio_uuid
 WHERE r.uuid = ANY($1::uuid[]) AND r.status = 'ACTIVE' AND r.next_due_date <= $2::date`,
  // Prepared, as the write: every batch of the business day runs both, and planning them anew each time cost
  // PostgreSQL about 5 % of the day's work.
  { prepared: 'billing_terms' },
);

/**
 * Locks the rentals still as read, posts their entries (the ledger's trigger moves their balances and next due
 * dates) and their charge-posted events (key = rental), moves the next due date of those whose periods charge
 * nothing, and notifies the outbox once; answers the rentals written.
 */
const WRITE = sql<
  { uuid: string; entries: string; notified: string },
  [
    rentalRecordUuids: string[],
    versions: string[],
    dueFrom: CalendarDate[],
    unchargedUuids: string[],
    unchargedNextDue: CalendarDate[],
    entriesJson: string,
    eventsJson: string,
    eventKeys: string[],
    eventIds: string[],
    topic: string,
    source: string,
  ]
>(
  `
WITH guarded AS (
  SELECT r.uuid FROM rental_records r
    JOIN unnest($1::uuid[], $2::text[], $3::date[]) AS i(uuid, version, due_from) ON r.uuid = i.uuid
   WHERE r.xmin = i.version::xid AND r.next_due_date = i.due_from AND r.status = 'ACTIVE'
   ORDER BY r.uuid FOR NO KEY UPDATE OF r
), uncharged AS (
  UPDATE rental_records r SET next_due_date = u.next_due, updated_at = now()
    FROM unnest($4::uuid[], $5::date[]) AS u(uuid, next_due)
   WHERE r.uuid = u.uuid AND u.uuid IN (SELECT uuid FROM guarded)
), posted AS (
  -- Every rental as read (all but always): the entries as they came; otherwise those of the rentals still as read.
  SELECT count(*) AS entries FROM rental_ledger_post(CASE
    WHEN (SELECT count(*) FROM guarded) = cardinality($1::uuid[]) THEN $6::json
    ELSE (SELECT json_agg(e.value ORDER BY e.n) FROM json_array_elements($6::json) WITH ORDINALITY AS e(value, n)
           WHERE (e.value->>'rental_record_uuid')::uuid IN (SELECT uuid FROM guarded))
  END)
), events AS (
  ${outboxInsert(
    // The key and id of each envelope come beside it: reading them out of the JSON would parse each envelope again.
    `(SELECT $10::text AS topic, u.key, 'charge-posted' AS type, u.event_id, u.envelope
        FROM ROWS FROM (json_array_elements($7::json), unnest($8::text[]), unnest($9::text[])) WITH ORDINALITY AS u(envelope, key, event_id, ord)
       WHERE u.key::uuid IN (SELECT uuid FROM guarded) ORDER BY u.ord) AS e`,
    '$11',
  )}
  RETURNING id
)
SELECT g.uuid::text AS uuid, (SELECT entries FROM posted) AS entries,
       (SELECT count(pg_notify('${OUTBOX_CHANNEL}', '')) FROM (SELECT FROM events LIMIT 1) n) AS notified
  FROM guarded g`,
  { prepared: 'billing_write' },
);

/**
 * What billing a batch of rentals did: the rentals billed through the date; those to read and bill again (changed
 * under it, or with periods left after the latest one that charged something: those charge nothing, and are billed
 * as a rental with no charge is, by moving its next due date); the charges posted.
 */
export interface BilledRentals {
  billed: string[];
  changed: string[];
  charges: number;
}

/**
 * Posts every period due through `through` of the given rentals (those active and due; others are left alone),
 * in the caller's transaction or as one statement of its own. `postedOn` is the day the entries are posted;
 * `source` the producing service, recorded on the outbox rows.
 */
export async function billRentals(
  db: Queryable,
  rentalRecordUuids: readonly string[],
  through: CalendarDate,
  options: { postedOn: CalendarDate; source: string; now?: Date },
): Promise<BilledRentals> {
  if (rentalRecordUuids.length === 0) return { billed: [], changed: [], charges: 0 };
  const rows = await query(db, TERMS, [rentalRecordUuids, through]);
  const now = options.now ?? new Date();
  const bills = rows.map((row) => billOf(row, through, options.postedOn, now));
  const uncharged = bills.filter((bill) => bill.events.length === 0);
  const events = bills.flatMap((bill) => bill.events);
  const locked = await query(db, WRITE, [
    bills.map((bill) => bill.row.uuid),
    bills.map((bill) => bill.row.version),
    bills.map((bill) => bill.row.next_due_date),
    uncharged.map((bill) => bill.row.uuid),
    uncharged.map((bill) => bill.nextDueDate),
    `[${bills
      .map((bill) => bill.entriesJson.slice(1, -1))
      .filter((json) => json !== '')
      .join(',')}]`,
    // The events as one JSON array: no array literal to escape, element by element.
    JSON.stringify(events),
    events.map((event) => event.payload.rentalRecordUuid),
    events.map((event) => event.eventId),
    topicFor('charge-posted'),
    options.source,
  ]);
  const written = new Set(locked.map((row) => row.uuid));
  return {
    billed: bills.filter((bill) => written.has(bill.row.uuid) && bill.complete).map((bill) => bill.row.uuid),
    changed: bills.filter((bill) => !written.has(bill.row.uuid) || !bill.complete).map((bill) => bill.row.uuid),
    charges: bills.filter((bill) => written.has(bill.row.uuid)).reduce((sum, bill) => sum + bill.events.length, 0),
  };
}

interface Bill {
  row: BillingRow;
  nextDueDate: CalendarDate;
  /** False when periods after the latest charged one are left for another pass. */
  complete: boolean;
  entriesJson: string;
  events: EventEnvelope<'charge-posted'>[];
}

/**
 * The periods due, their entries and a charge-posted event per charge, with the balance each leaves. The ledger
 * moves the next due date to the end of the latest period charged, so a bill stops there; periods after it charge
 * nothing and are left for another pass, which moves the next due date itself.
 */
function billOf(row: BillingRow, through: CalendarDate, postedOn: CalendarDate, now: Date): Bill {
  const due = billingPeriodsDue(row.start_date, row.next_due_date, through).map((period) => ({
    period,
    charges: chargesForPeriod(termsOn(row, period.from), period),
  }));
  const charged = due.findLastIndex((period) => period.charges.length > 0);
  const periods = charged < 0 ? due : due.slice(0, charged + 1);
  const entries = periodChargeEntries(
    periods.flatMap((period) => period.charges),
    postedOn,
  );
  let balance = row.balance_in_pennies;
  const events = entries.charges.map(({ entryUuid, charge }) => {
    balance += netAmount(charge);
    return createEnvelope({
      type: 'charge-posted',
      eventId: entryUuid,
      occurredAt: now,
      portfolio: row.portfolio_id,
      payload: {
        rentalRecordUuid: row.uuid,
        chargeUuid: entryUuid,
        amountInPennies: netAmount(charge),
        description: describe(charge),
        balanceAfterInPennies: balance,
        dueDate: charge.dueOn,
      },
    });
  });
  return {
    row,
    nextDueDate: periods.at(-1)?.period.to ?? row.next_due_date,
    complete: periods.length === due.length,
    entriesJson: entriesJson(row.uuid, entries.entries),
    events,
  };
}

/** The terms a period due on `dueOn` is billed on: the services running that day. */
function termsOn(row: BillingRow, dueOn: CalendarDate): RentalBillingTerms {
  const [firstChange] = row.rent_changes;
  return {
    // The rent at signing: before the first change, what it changed from.
    rentInPennies: firstChange?.previousRentInPennies ?? row.rent_in_pennies,
    rentChanges: row.rent_changes,
    services: row.services
      .filter((service) => service.startDate <= dueOn && (service.endDate === null || service.endDate > dueOn))
      .map(({ description, amount, feeType, itemTypeUuid }) => ({ description, amount, feeType, itemTypeUuid })),
    coverage: null,
    promotions: row.promotions.map(promotionTermsOf),
  };
}

/** The charge's description, naming the promotions that discount it. */
function describe(charge: PeriodCharge): string {
  return charge.discounts.length === 0 ? charge.description : `${charge.description}, less ${charge.discounts.map((d) => d.name).join(', ')}`;
}
