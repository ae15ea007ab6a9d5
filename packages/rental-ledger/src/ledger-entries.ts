import { timeOrderedUuid, type CalendarDate, type LedgerLine, type PeriodCharge } from '@storage/domain';
import { fragment, query, sql, type Queryable, type SqlFragment } from '@storage/persistence';

export const LEDGER_ENTRY_KINDS = [
  'OPENING_BALANCE',
  'RENT',
  'MOVE_IN_PRORATION',
  'SERVICE_FEE',
  'COVERAGE_PREMIUM',
  'LATE_FEE',
  'PROMOTION_CREDIT',
  'PAYMENT',
  'TRANSFER_IN',
  'TRANSFER_OUT',
  'WRITE_OFF',
  'AUCTION_PROCEEDS',
  'REFUND',
] as const;
export type LedgerEntryKind = (typeof LEDGER_ENTRY_KINDS)[number];

/**
 * An entry to post. Positive amounts add to what is owed and need `dueOn`; credits are negative. `chargeKey`
 * makes the entry once per rental: posting it again is a no-op.
 */
export interface NewLedgerEntry {
  uuid?: string;
  kind: LedgerEntryKind;
  description: string;
  amountInPennies: number;
  postedOn: CalendarDate;
  dueOn: CalendarDate | null;
  period?: { from: CalendarDate; to: CalendarDate };
  appliesTo?: string;
  itemTypeUuid?: string | null;
  promotionUuid?: string;
  paymentUuid?: string;
  chargeKey?: string;
}

/** An entry as stored, oldest first by `seq`. */
export interface LedgerEntry {
  entryUuid: string;
  seq: string;
  kind: LedgerEntryKind;
  description: string;
  amountInPennies: number;
  postedOn: CalendarDate;
  dueOn: CalendarDate | null;
  periodFrom: CalendarDate | null;
  periodTo: CalendarDate | null;
  appliesTo: string | null;
  itemTypeUuid: string | null;
  promotionUuid: string | null;
  paymentUuid: string | null;
}

export interface PostedEntry {
  uuid: string;
  amountInPennies: number;
  chargeKey: string | null;
}

const POST_ENTRIES = sql<PostedEntry, [entriesJson: string]>(
  `SELECT entry_uuid AS uuid, amount_in_pennies AS "amountInPennies", charge_key AS "chargeKey" FROM rental_ledger_post($1::json)`,
);

/**
 * Posts entries in the caller's transaction, in one statement; the trigger adds them to the rental's balance.
 * Returns the entries written: one whose `chargeKey` the rental has already is left out.
 */
export async function postEntries(db: Queryable, rentalRecordUuid: string, entries: readonly NewLedgerEntry[]): Promise<PostedEntry[]> {
  if (entries.length === 0) return [];
  return query(db, POST_ENTRIES, [entriesJson(rentalRecordUuid, entries)]);
}

/**
 * The query that posts entries inside another writer's statement, so a write with ledger entries among its
 * effects stays one statement (the business-day transition, on the scheduler's hot path): `entries` is an SQL
 * expression of `entriesJson`'s array, `condition` must hold for anything to be posted. A row per entry posted;
 * in a CTE it runs only when referenced. The ledger stays the one writer of its entries: the SQL is this package's.
 */
export function postEntriesQuery(entries: string, condition: string): SqlFragment {
  return fragment(`SELECT FROM rental_ledger_post(${entries})
   WHERE ${condition}`);
}

/**
 * The entries of many rows as one `rental_ledger_post` argument, in the rows' order: `rows` is an SQL FROM item
 * aliased `r` with a column `ledger_entries` (an `entriesJson` array per row) and `ord`, its order. For a statement
 * that writes a batch (payments, business-day transitions) and posts the entries of the rows it wrote.
 */
export function entriesOfRows(rows: string): SqlFragment {
  return fragment(`(SELECT json_agg(e.entry ORDER BY r.ord, e.n) FROM ${rows}, json_array_elements(r.ledger_entries) WITH ORDINALITY AS e(entry, n))`);
}

/**
 * A rental's entries as the argument of the database function `rental_ledger_post(entries json)`, for a
 * statement that posts them among other writes (a batch of payments, the business-day transition); arrays of
 * several rentals concatenate. `postEntries` calls the same function.
 */
export function entriesJson(rentalRecordUuid: string, entries: readonly NewLedgerEntry[]): string {
  return JSON.stringify(
    entries.map((entry) => ({
      // Time-ordered: new entries go to the right edge of the primary key, not to a random page of an index that
      // grows with every month of every tenancy.
      uuid: entry.uuid ?? timeOrderedUuid(),
      rental_record_uuid: rentalRecordUuid,
      kind: entry.kind,
      description: entry.description,
      amount_in_pennies: entry.amountInPennies,
      posted_on: entry.postedOn,
      due_on: entry.dueOn,
      period_from: entry.period?.from ?? null,
      period_to: entry.period?.to ?? null,
      applies_to: entry.appliesTo ?? null,
      item_type_uuid: entry.itemTypeUuid ?? null,
      promotion_uuid: entry.promotionUuid ?? null,
      payment_uuid: entry.paymentUuid ?? null,
      charge_key: entry.chargeKey ?? null,
    })),
  );
}

/** What makes a period charge once per rental: its kind, item type (`-` for none) and due date, e.g. `RENT:-:2026-12-23`. */
export function periodChargeKey(charge: Pick<PeriodCharge, 'kind' | 'itemTypeUuid' | 'dueOn'>): string {
  return `${charge.kind}:${charge.itemTypeUuid ?? '-'}:${charge.dueOn}`;
}

/**
 * The entries of period charges: each charge with its uuid, followed by its promotions' credits naming it. Each
 * entry has a charge key (a charge: kind, item type and due date; a credit: its promotion and its charge's key),
 * so posting the same period again writes nothing, credits included.
 */
export function periodChargeEntries(
  charges: readonly PeriodCharge[],
  postedOn: CalendarDate,
): { entries: NewLedgerEntry[]; charges: { entryUuid: string; charge: PeriodCharge }[] } {
  const entries: NewLedgerEntry[] = [];
  const posted: { entryUuid: string; charge: PeriodCharge }[] = [];
  for (const charge of charges) {
    const entryUuid = timeOrderedUuid();
    const chargeKey = periodChargeKey(charge);
    posted.push({ entryUuid, charge });
    entries.push({
      uuid: entryUuid,
      kind: charge.kind,
      description: charge.description,
      amountInPennies: charge.amountInPennies,
      postedOn,
      dueOn: charge.dueOn,
      period: charge.servicePeriod,
      itemTypeUuid: charge.itemTypeUuid,
      chargeKey,
    });
    for (const discount of charge.discounts) {
      entries.push({
        kind: 'PROMOTION_CREDIT',
        description: discount.name,
        amountInPennies: -discount.amountInPennies,
        postedOn,
        dueOn: null,
        appliesTo: entryUuid,
        promotionUuid: discount.promotionUuid,
        chargeKey: `PROMOTION_CREDIT:${discount.promotionUuid}:${chargeKey}`,
      });
    }
  }
  return { entries, charges: posted };
}

const ENTRIES = sql<LedgerEntry, [rentalRecordUuid: string]>(
  `SELECT uuid AS "entryUuid", seq::text AS seq, kind, description, amount_in_pennies AS "amountInPennies", posted_on::text AS "postedOn",
            due_on::text AS "dueOn", period_from::text AS "periodFrom", period_to::text AS "periodTo", applies_to AS "appliesTo",
            item_type_uuid AS "itemTypeUuid", promotion_uuid AS "promotionUuid", payment_uuid AS "paymentUuid"
       FROM rental_ledger_entries e WHERE rental_record_uuid = $1 ORDER BY e.seq`,
);

/** The rental's entries, oldest first. */
export async function ledgerEntries(db: Queryable, rentalRecordUuid: string): Promise<LedgerEntry[]> {
  return query(db, ENTRIES, [rentalRecordUuid]);
}

/** The entries as the domain's money rules read them. */
export function asLedgerLines(entries: readonly LedgerEntry[]): LedgerLine[] {
  return entries.map((entry) => ({ entryUuid: entry.entryUuid, amountInPennies: entry.amountInPennies, dueOn: entry.dueOn, appliesTo: entry.appliesTo }));
}

/** An entry with its position in the ledger and the balance it left. */
export interface LedgerStatementEntry extends LedgerEntry {
  position: string;
  balanceAfterInPennies: number;
}

const LEDGER_PAGE = sql<LedgerStatementEntry, [rentalRecordUuid: string, after: string, limit: number]>(
  `SELECT * FROM (
       SELECT uuid AS "entryUuid", seq::text AS seq, seq::text AS position, kind, description, amount_in_pennies AS "amountInPennies",
              posted_on::text AS "postedOn", due_on::text AS "dueOn", period_from::text AS "periodFrom", period_to::text AS "periodTo",
              applies_to AS "appliesTo", item_type_uuid AS "itemTypeUuid", promotion_uuid AS "promotionUuid", payment_uuid AS "paymentUuid",
              (sum(amount_in_pennies) OVER (ORDER BY seq))::int AS "balanceAfterInPennies"
         FROM rental_ledger_entries WHERE rental_record_uuid = $1) e
      WHERE e.seq::bigint > $2::bigint ORDER BY e.seq::bigint LIMIT $3`,
);

/**
 * A page of the rental's ledger, oldest first: up to `limit` entries after position `after` (0 for the first
 * page), each with the balance it left. `more` says whether entries follow the page.
 */
export async function ledgerPage(
  db: Queryable,
  rentalRecordUuid: string,
  page: { after: string; limit: number },
): Promise<{ entries: LedgerStatementEntry[]; more: boolean }> {
  const rows = await query(db, LEDGER_PAGE, [rentalRecordUuid, page.after, page.limit + 1]);
  return { entries: rows.slice(0, page.limit), more: rows.length > page.limit };
}
