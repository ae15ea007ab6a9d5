import { parseEnvelope, TENANT_LIFECYCLE_TOPIC, type BillingPromotion, type EventEnvelope } from '@storage/domain';
import type { DataSource } from 'typeorm';
import { id, sentSigningLink } from './test-api';
import type { LifecycleApi } from './lifecycle-api';
import { query, sql } from '@storage/persistence';

export const DOWNTOWN = id('facility:downtown');
export const OPS = '/api/demo/portfolios/v1';
export const rentalPath = (rentalUuid: string, facilityUuid = DOWNTOWN): string => `${OPS}/facilities/${facilityUuid}/rentalRecords/${rentalUuid}`;

/** The downtown facility's default coverage (seeded): enrolled at signing and billed as a service. */
export const DEFAULT_COVERAGE_SERVICE = {
  description: 'Coverage premium (SAFE_LEASE)',
  amount: 900,
  feeType: 'FIXED_AMOUNT',
  itemTypeUuid: id('item-type:coverage:SAFE_LEASE'),
};
export const LOCK_SERVICE = { description: 'Disc lock rental', amount: 500, feeType: 'FIXED_AMOUNT', itemTypeUuid: id('item-type:lock') };

export interface NewLead {
  leadUuid: string;
  personUuid: string;
  link: string;
}

/** A lead created through the shopping extension, with its lease sent by operation 13 (the link as the tenant got it). */
export async function leadWithLease(api: LifecycleApi, unitGroupUuid: string, name: { firstName: string; lastName: string }): Promise<NewLead> {
  const email = `${name.firstName}.${name.lastName}@example.com`.toLowerCase();
  const created = await api.call('POST', '/shopping/demo/v1/leads', { facilityUuid: DOWNTOWN, unitGroupUuid, ...name, email, phone: '(646) 555-0123' });
  expect(created.status).toBe(200);
  const leadUuid: string = created.body.leadUuid;
  const sent = await api.call('POST', `${OPS}/facilities/${DOWNTOWN}/leads/${leadUuid}/sendLease`);
  expect(sent.body).toBe('Lease sent by email.');
  const [lead] = await query(api.db, sql<{ personUuid: string }>('SELECT person_uuid AS "personUuid" FROM leads WHERE uuid = $1'), [leadUuid]);
  return { leadUuid, personUuid: lead.personUuid, link: sentSigningLink(api.sentNotifications(), email) };
}

/** The signing link's path (the lease page), to post the form to. */
export const signingPath = (link: string): string => new URL(link).pathname;

export async function rentalOf(db: DataSource, leadUuid: string): Promise<string | null> {
  const [lead] = await query(db, sql<{ rental: string | null }>('SELECT converted_rental_record_uuid AS rental FROM leads WHERE uuid = $1'), [leadUuid]);
  return lead?.rental ?? null;
}

/** Lifecycle events of these rentals in log order, as the embedded transport reads them (the outbox is the log). */
export async function outboxLifecycleEvents(db: DataSource, rentalUuids: string[]): Promise<EventEnvelope[]> {
  const rows = await query(db, sql<{ envelope: unknown }>('SELECT envelope FROM outbox WHERE topic = $1 AND key = ANY($2::text[]) ORDER BY id'), [
    TENANT_LIFECYCLE_TOPIC,
    rentalUuids,
  ]);
  return rows.map((row) => parseEnvelope(row.envelope));
}

/** Every outbox row (all topics) about these rentals: what bad requests must leave untouched. */
export async function outboxCount(db: DataSource, rentalUuids: string[]): Promise<number> {
  const [row] = await query(db, sql<{ count: number }>('SELECT count(*)::int AS count FROM outbox WHERE key = ANY($1::text[])'), [rentalUuids]);
  return row.count;
}

/** The facility's calendar day now, as the api dates today's changes. */
export async function facilityToday(db: DataSource, facilityUuid = DOWNTOWN): Promise<string> {
  const [row] = await query(db, sql<{ today: string }>('SELECT (now() AT TIME ZONE time_zone)::date::text AS today FROM facilities WHERE uuid = $1'), [
    facilityUuid,
  ]);
  return row.today;
}

/** A vacant unit of a unit group. */
export async function vacantUnit(db: DataSource, unitGroupUuid: string): Promise<string> {
  const [unit] = await query(db, sql<{ uuid: string }>(`SELECT uuid FROM units WHERE unit_group_uuid = $1 AND status = 'vacant' ORDER BY name LIMIT 1`), [
    unitGroupUuid,
  ]);
  if (!unit) throw new Error(`no vacant unit in ${unitGroupUuid}`);
  return unit.uuid;
}

/** Service entries in a stable order: the api orders services of one start day by row id, which is random. */
export const byItemType = <T extends { itemTypeUuid: string }>(services: T[]): T[] =>
  [...services].sort((a, b) => a.itemTypeUuid.localeCompare(b.itemTypeUuid));

interface Winner {
  promotionUuid: string;
  promotionName: string;
  highestDiscountAmount: number;
  itemTypeUuid?: string;
}

/**
 * What billingTemplate.promotions lists once a personal lead signs a lease of the downtown unit group:
 * operation 1's winners (rent first, then by item type) with their promotions' terms. Ask before signing:
 * taking the unit may move the group's web rate, which the winners are priced on.
 */
export async function promisedPromotions(api: LifecycleApi, unitGroupUuid: string): Promise<BillingPromotion[]> {
  const reply = await api.call('POST', '/shopping/demo/v1/promotions/eligible-auto-applied-promotions-with-highest-discount', {
    facilityUuids: DOWNTOWN,
    unitGroupUuids: [unitGroupUuid],
  });
  expect(reply.status).toBe(200);
  const group: { bestAutoAppliedPromotion: Winner | null; serviceWinners: Winner[] } = reply.body[0];
  const winners = [...(group.bestAutoAppliedPromotion ? [group.bestAutoAppliedPromotion] : []), ...group.serviceWinners];
  const terms = await query(
    api.db,
    sql<
      Pick<BillingPromotion, 'promotionUuid' | 'discountType' | 'monthStarts' | 'durationInMonths'>
    >(`SELECT uuid AS "promotionUuid", discount_type AS "discountType", month_starts AS "monthStarts", duration_in_months AS "durationInMonths"
       FROM promotions WHERE uuid = ANY($1::uuid[])`),
    [winners.map((winner) => winner.promotionUuid)],
  );
  return winners.map((winner) => ({
    ...terms.find((term) => term.promotionUuid === winner.promotionUuid)!,
    promotionName: winner.promotionName,
    discountAmountInPennies: winner.highestDiscountAmount,
    itemTypeUuid: winner.itemTypeUuid ?? null,
  }));
}
