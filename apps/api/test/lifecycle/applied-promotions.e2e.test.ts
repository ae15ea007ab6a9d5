import { addDays, DEFAULT_DELINQUENCY_SCHEDULE, type BillingPromotion, type EventEnvelope } from '@storage/domain';
import { BusinessDayAdvancer } from '@storage/delinquency';
import { id } from '../support/test-api';
import { owe } from '../support/ledger';
import { startLifecycleApi, type LifecycleApi } from '../support/lifecycle-api';
import {
  DOWNTOWN,
  facilityToday,
  leadWithLease,
  outboxLifecycleEvents,
  promisedPromotions,
  rentalOf,
  rentalPath,
  signingPath,
  vacantUnit,
  type NewLead,
} from '../support/lifecycle-flow';
import { query, sql } from '@storage/persistence';

let api: LifecycleApi;
beforeAll(async () => {
  api = await startLifecycleApi();
});
afterAll(async () => api.close());

const AGREE = { agree: 'yes' };
const LOCK = id('item-type:lock');

async function sign(lead: NewLead): Promise<string> {
  expect((await api.postForm(signingPath(lead.link), AGREE)).text).toContain('Thank you, your lease is signed.');
  return (await rentalOf(api.db, lead.leadUuid))!;
}

/** The rental's rows in rental_promotions, rent first. */
async function recorded(rentalUuid: string): Promise<Record<string, unknown>[]> {
  return query(
    api.db,
    sql(`SELECT promotion_uuid AS "promotionUuid", name, family, item_type_uuid AS "itemTypeUuid", discount_type AS "discountType",
            percentage, amount_in_pennies AS "amountInPennies", month_starts AS "monthStarts", duration_in_months AS "durationInMonths",
            discount_in_pennies AS "discountInPennies", applied_on::text AS "appliedOn"
       FROM rental_promotions WHERE rental_record_uuid = $1 ORDER BY item_type_uuid NULLS FIRST`),
    [rentalUuid],
  );
}

const promotionsOf = (event: EventEnvelope): BillingPromotion[] =>
  (event.payload as { billingTemplate: { promotions: BillingPromotion[] } }).billingTemplate.promotions;

describe('promotions applied at signing', () => {
  it('records what the lease page showed, once, and every event of the rental lists it', async () => {
    const group = id('unit-group:downtown:5x10:1');
    const [{ webRate }] = await query(api.db, sql<{ webRate: number }>('SELECT current_web_rate_in_pennies AS "webRate" FROM unit_groups WHERE uuid = $1'), [
      group,
    ]);
    const promised = await promisedPromotions(api, group);
    const lead = await leadWithLease(api, group, { firstName: 'Pia', lastName: 'Promo' });
    const page = await api.call('GET', signingPath(lead.link));
    // The personal tenant's best rent promotion pays $1 for the first month; the lock's is $2 off for 3 months.
    const rentDiscount = webRate - 100;
    expect(page.text).toContain(`$1 first month: $${(rentDiscount / 100).toFixed(2)} off rent`);
    expect(page.text).toContain('$2 off lock for 3 months: $6.00 off Disc lock rental');

    const rental = await sign(lead);
    expect((await api.postForm(signingPath(lead.link), AGREE)).text).toContain('This lease is already signed; nothing was changed.');

    const today = await facilityToday(api.db);
    expect(await recorded(rental)).toEqual([
      {
        promotionUuid: id('promotion:downtown:one-dollar'),
        name: '$1 first month',
        family: 'RENT',
        itemTypeUuid: null,
        discountType: 'FIXED_RATE',
        percentage: null,
        amountInPennies: 100,
        monthStarts: 1,
        durationInMonths: 1,
        discountInPennies: rentDiscount,
        appliedOn: today,
      },
      {
        promotionUuid: id('promotion:downtown:lock-2-off'),
        name: '$2 off lock for 3 months',
        family: 'DISCOUNTED_SERVICE',
        itemTypeUuid: LOCK,
        discountType: 'AMOUNT_OFF',
        percentage: null,
        amountInPennies: 200,
        monthStarts: 1,
        durationInMonths: 3,
        discountInPennies: 600,
        appliedOn: today,
      },
    ]);
    const listed: BillingPromotion[] = [
      {
        promotionUuid: id('promotion:downtown:one-dollar'),
        promotionName: '$1 first month',
        discountType: 'FIXED_RATE',
        monthStarts: 1,
        durationInMonths: 1,
        discountAmountInPennies: rentDiscount,
        itemTypeUuid: null,
      },
      {
        promotionUuid: id('promotion:downtown:lock-2-off'),
        promotionName: '$2 off lock for 3 months',
        discountType: 'AMOUNT_OFF',
        monthStarts: 1,
        durationInMonths: 3,
        discountAmountInPennies: 600,
        itemTypeUuid: LOCK,
      },
    ];
    // What operation 1 answered before signing is what was signed for.
    expect(promised).toEqual(listed);

    const [movedIn] = await outboxLifecycleEvents(api.db, [rental]);
    expect(movedIn.type).toBe('moved-in');
    expect(promotionsOf(movedIn)).toEqual(listed);

    // A rent change (the api) and a delinquency status change (the scheduler's business-day run) list them too.
    expect((await api.call('POST', `${rentalPath(rental)}/rentChange`, { newRentInPennies: 9999, effectiveDate: today })).status).toBe(200);
    await owe(api.db, rental, 9999, addDays(today, -6));
    const worker = await new BusinessDayAdvancer(api.db, 'test').worker();
    try {
      expect(await worker.advance([rental], today, DEFAULT_DELINQUENCY_SCHEDULE)).toEqual({ transitions: 1, failures: [] });
    } finally {
      await worker.release();
    }
    const events = await outboxLifecycleEvents(api.db, [rental]);
    expect(events.map((event) => event.type)).toEqual(['moved-in', 'rent-change', 'delinquency-status-change']);
    for (const event of events) expect(promotionsOf(event)).toEqual(listed);
  });

  it('records none for a unit group without an auto-applied promotion', async () => {
    const group = id('unit-group:downtown:5x5:1');
    // Downtown's promotions for every unit group now target every group but this one, as the operator puts them.
    const [{ others }] = await query(
      api.db,
      sql<{ others: string[] }>(`SELECT array_agg(uuid) AS others FROM unit_groups WHERE facility_uuid = $1 AND uuid <> $2`),
      [DOWNTOWN, group],
    );
    const everyGroup = await query(
      api.db,
      sql<{ uuid: string; terms: Record<string, unknown> }>(`SELECT uuid, jsonb_strip_nulls(jsonb_build_object(
           'name', name, 'isAutoApplied', is_auto_applied, 'tenantType', tenant_type, 'isAutoPayRequired', is_auto_pay_required,
           'discountType', discount_type, 'percentage', percentage, 'amountInPennies', amount_in_pennies, 'monthStarts', month_starts,
           'durationInMonths', duration_in_months, 'validFrom', valid_from, 'validTo', valid_to, 'family', family, 'itemTypeUuid', item_type_uuid)) AS terms
         FROM promotions WHERE facility_uuid = $1 AND unit_group_uuids = '{}'`),
      [DOWNTOWN],
    );
    expect(everyGroup.length).toBeGreaterThan(0);
    for (const { uuid, terms } of everyGroup) {
      const put = await api.call('PUT', `/api/demo/portfolios/v1/facilities/${DOWNTOWN}/promotions/${uuid}`, { ...terms, unitGroupUuids: others });
      expect(put.body).toEqual({ uuid, outcome: 'updated' });
    }
    expect(await promisedPromotions(api, group)).toEqual([]);
    const lead = await leadWithLease(api, group, { firstName: 'Nico', lastName: 'Plain' });
    expect((await api.call('GET', signingPath(lead.link))).text).toContain('No promotion applies.');

    const rental = await sign(lead);
    expect(await recorded(rental)).toEqual([]);
    const [movedIn] = await outboxLifecycleEvents(api.db, [rental]);
    expect(promotionsOf(movedIn)).toEqual([]);
  });

  it('a transfer carries the promotions as signed for to the new rental, whatever became of the promotion since', async () => {
    const lead = await leadWithLease(api, id('unit-group:downtown:10x10:1'), { firstName: 'Tess', lastName: 'Moves' });
    const rental = await sign(lead);
    const signedFor = await recorded(rental);
    expect(signedFor.map((promotion) => promotion.name)).toEqual(['$1 first month', '$2 off lock for 3 months']);
    // The operator renames the promotion and lowers its discount (onboarding's putPromotion: the demo's terms, two changed).
    const renamed = await api.call('PUT', `/api/demo/portfolios/v1/facilities/${DOWNTOWN}/promotions/${id('promotion:downtown:lock-2-off')}`, {
      name: 'Renamed',
      family: 'DISCOUNTED_SERVICE',
      itemTypeUuid: LOCK,
      discountType: 'AMOUNT_OFF',
      amountInPennies: 50,
      durationInMonths: 3,
    });
    expect(renamed.body).toEqual({ uuid: id('promotion:downtown:lock-2-off'), outcome: 'updated' });

    const transferred = await api.call('POST', `${rentalPath(rental)}/transfer`, { newUnitUuid: await vacantUnit(api.db, id('unit-group:downtown:10x20:1')) });
    expect(transferred.status).toBe(200);
    const newRental: string = transferred.body.rentalRecordUuid;
    expect(await recorded(newRental)).toEqual(signedFor);
    // The old rental keeps its record of what was signed for.
    expect(await recorded(rental)).toEqual(signedFor);
    const [transfer] = await outboxLifecycleEvents(api.db, [newRental]);
    expect(transfer.type).toBe('transfer');
    expect(promotionsOf(transfer)).toEqual(
      signedFor.map((promotion) => ({
        promotionUuid: promotion.promotionUuid,
        promotionName: promotion.name,
        discountType: promotion.discountType,
        monthStarts: promotion.monthStarts,
        durationInMonths: promotion.durationInMonths,
        discountAmountInPennies: promotion.discountInPennies,
        itemTypeUuid: promotion.itemTypeUuid,
      })),
    );
  });
});
