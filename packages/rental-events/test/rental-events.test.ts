import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource, query, sql } from '@storage/persistence';
import { postEntries } from '@storage/rental-ledger';
import { endRental, importRentals, type ExistingRental, type ExistingService } from '@storage/rentals';
import { createTestDatabase, insertRentalParents, type TestDatabase } from '@storage/testing';
import { saveUnit, saveUnitGroup } from '@storage/unit-occupancy';
import { loadRentalEventContext, rentalEnvelope } from '../src';

let database: TestDatabase;
let db: DataSource;
const LOCK = 'ffffffff-0000-4000-8000-000000000001';
const ids = {
  portfolio: randomUUID(),
  facility: randomUUID(),
  unitType: randomUUID(),
  stg: randomUUID(),
  group: randomUUID(),
  amenities: [randomUUID(), randomUUID()].sort(),
  unit: randomUUID(),
  person: randomUUID(),
  rental: randomUUID(),
  otherRental: randomUUID(),
  movedOutRental: randomUUID(),
  item: randomUUID(),
  endedItem: randomUUID(),
  plan: randomUUID(),
  otherUnit: randomUUID(),
  movedOutUnit: randomUUID(),
};

beforeAll(async () => {
  database = await createTestDatabase();
  db = await createDataSource({ url: database.url, applicationName: 'rental-events-test' }).initialize();
  // The portfolio, its facility, unit type, size-and-type group and rate plan: packages/testing's parent rows.
  await insertRentalParents(db, {
    portfolioUuid: ids.portfolio,
    portfolioId: 'acme',
    facilityUuid: ids.facility,
    unitTypeUuid: ids.unitType,
    sizeAndTypeGroupUuid: ids.stg,
    ratePlanUuid: ids.plan,
    itemTypeUuid: LOCK,
  });
  // Rows of the api's catalog and shopping the event reads, which no package writes.
  for (const amenity of ids.amenities) {
    await query(
      db,
      sql(`INSERT INTO amenities (uuid, portfolio_uuid, description) VALUES ($1, $2, 'Amenity') -- owner-bypass: the api's, no package writes it`),
      [amenity, ids.portfolio],
    );
  }
  for (const item of [ids.item, ids.endedItem]) {
    await query(
      db,
      sql(`INSERT INTO item_types (uuid, portfolio_uuid, name, kind, price_in_pennies) VALUES ($1, $2, 'Item', 'SERVICE', 0)
           -- owner-bypass: the api's, no package writes it`),
      [item, ids.portfolio],
    );
  }
  await query(
    db,
    sql(`INSERT INTO persons (uuid, portfolio_uuid, first_name, last_name, email, phone, is_sms_enrolled) VALUES ($1, $2, 'Grace', 'Hopper', NULL, NULL, false)
         -- owner-bypass: the api's tenant without email or phone, no package writes it`),
    [ids.person, ids.portfolio],
  );
  await db.transaction(async (m) => {
    await saveUnitGroup(m, ids.facility, ids.group, {
      sizeAndTypeGroupUuid: ids.stg,
      description: '10x10',
      tierLevel: 1,
      ratePlanUuid: ids.plan,
      baseStreetRateInPennies: 100,
      baseWebRateInPennies: 100,
      canShowUnitGroupTenantPortal: true,
    });
    for (const [unit, name] of [
      [ids.unit, 'A-1'],
      [ids.otherUnit, 'A-2'],
      [ids.movedOutUnit, 'A-3'],
    ]) {
      await saveUnit(m, ids.facility, unit, { unitGroupUuid: ids.group, name, floor: '1' });
    }
  });
  for (const amenity of ids.amenities) {
    await query(db, sql("INSERT INTO unit_group_amenities (unit_group_uuid, amenity_uuid) VALUES ($1, $2) -- owner-bypass: the api's, no package writes it"), [
      ids.group,
      amenity,
    ]);
  }
  // The rentals as rentals imports tenancies (billed on the 15th), one moved out since.
  const rental = (uuid: string, unitUuid: string, services: ExistingService[], code: string): ExistingRental => ({
    uuid,
    portfolioUuid: ids.portfolio,
    facilityUuid: ids.facility,
    unitUuid,
    unitGroupUuid: ids.group,
    personUuid: ids.person,
    leadUuid: null,
    rentInPennies: 9900,
    startDate: '2025-01-15',
    nextDueDate: '2025-07-15',
    autopayPaymentMethod: null,
    gateCode: { uuid: randomUUID(), code },
    services,
    vehicles: [],
    coverageEnrollments: [],
  });
  const service = (itemTypeUuid: string, description: string, amountInPennies: number, feeType: string, endDate: string | null): ExistingService => ({
    uuid: randomUUID(),
    itemTypeUuid,
    description,
    amountInPennies,
    feeType,
    startDate: '2025-01-15',
    endDate,
  });
  await db.transaction(async (m) => {
    await importRentals(m, [
      rental(
        ids.rental,
        ids.unit,
        [service(ids.item, 'Insurance', 10, 'PERCENTAGE', null), service(ids.endedItem, 'Ended lock rental', 500, 'FIXED_AMOUNT', '2025-02-01')],
        '111111',
      ),
      rental(ids.otherRental, ids.otherUnit, [], '222222'),
      rental(ids.movedOutRental, ids.movedOutUnit, [], '333333'),
    ]);
    await endRental(m, { rentalRecordUuid: ids.movedOutRental, unitUuid: ids.movedOutUnit, endDate: '2025-03-01' });
  });
  // The balances, posted as the ledger keeps them.
  for (const [uuid, owed] of [
    [ids.rental, 2500],
    [ids.otherRental, 1000],
    [ids.movedOutRental, 700],
  ] as const) {
    await db.transaction((m) =>
      postEntries(m, uuid, [{ kind: 'RENT', description: 'Rent', amountInPennies: owed, postedOn: '2025-01-15', dueOn: '2025-01-15' }]),
    );
  }
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

describe('loadRentalEventContext', () => {
  it('reads the base payload, portfolio and filters of a rental in one go', async () => {
    expect(await loadRentalEventContext(db, ids.rental)).toEqual({
      portfolio: 'acme',
      base: {
        tenantUuid: ids.person,
        unitRental: {
          rentalRecordUuid: ids.rental,
          unitGroupUuid: ids.group,
          unitUuid: ids.unit,
          facilityUuid: ids.facility,
          rentalBalance: 2500,
          startRentDate: '2025-01-15',
          endRentDate: null,
        },
        billingTemplate: {
          currentRentInPennies: 9900,
          additionalServicesAndFees: [{ description: 'Insurance', amount: 10, feeType: 'PERCENTAGE', itemTypeUuid: ids.item }],
          promotions: [],
          billingDayOfMonth: 15,
          nextDueDate: '2025-07-15',
        },
        // The person's active rentals; the moved-out one no longer counts.
        tenantBalanceInPennies: 3500,
        primaryContact: { firstName: 'Grace', lastName: 'Hopper', phone: '', isSMSEnrolled: false, email: '' },
      },
      filters: { unitType: ids.unitType, amenityUuids: ids.amenities },
    });
  });

  it("lists the rental's recorded promotions, rent first, then by item type, as the event contract has them", async () => {
    const lock = LOCK;
    const promotion = `INSERT INTO rental_promotions (rental_record_uuid, promotion_uuid, name, family, item_type_uuid, discount_type, percentage,
                                                      amount_in_pennies, month_starts, duration_in_months, discount_in_pennies, applied_on)
                       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, '2025-01-02') -- owner-bypass: the api's, no package writes it`;
    const [lockOff, halfOff] = [randomUUID(), randomUUID()];
    for (const uuid of [lockOff, halfOff]) {
      await query(
        db,
        sql(
          `INSERT INTO promotions (uuid, facility_uuid, name, discount_type, percentage) VALUES ($1, $2, 'Promotion', 'PERCENTAGE', 10) -- owner-bypass: the api's, no package writes it`,
        ),
        [uuid, ids.facility],
      );
    }
    await query(db, sql(promotion), [ids.otherRental, lockOff, '$2 off lock for 3 months', 'DISCOUNTED_SERVICE', lock, 'AMOUNT_OFF', null, 200, 1, 3, 600]);
    await query(db, sql(promotion), [ids.otherRental, halfOff, 'First month 50% off', 'RENT', null, 'PERCENTAGE', 50, null, 2, 1, 4950]);

    const context = (await loadRentalEventContext(db, ids.otherRental))!;
    expect(context.base.billingTemplate.promotions).toEqual([
      {
        promotionUuid: halfOff,
        promotionName: 'First month 50% off',
        discountType: 'PERCENTAGE',
        monthStarts: 2,
        durationInMonths: 1,
        discountAmountInPennies: 4950,
        itemTypeUuid: null,
      },
      {
        promotionUuid: lockOff,
        promotionName: '$2 off lock for 3 months',
        discountType: 'AMOUNT_OFF',
        monthStarts: 1,
        durationInMonths: 3,
        discountAmountInPennies: 600,
        itemTypeUuid: lock,
      },
    ]);
    expect(rentalEnvelope('moved-in', context, {}, new Date()).payload.billingTemplate.promotions).toEqual(context.base.billingTemplate.promotions);
    // Another rental of the same tenant shows none of them.
    expect((await loadRentalEventContext(db, ids.rental))!.base.billingTemplate.promotions).toEqual([]);
  });

  it('counts a moved-out rental in its own tenant balance, and answers null for an unknown rental', async () => {
    expect((await loadRentalEventContext(db, ids.movedOutRental))?.base.tenantBalanceInPennies).toBe(4200);
    expect(await loadRentalEventContext(db, randomUUID())).toBeNull();
  });
});

describe('rentalEnvelope', () => {
  it('builds a valid envelope: eventId from rental, time and event, filters, the added object', async () => {
    const context = (await loadRentalEventContext(db, ids.rental))!;
    const at = new Date('2025-07-01T10:00:00.123Z');
    const rentChange = { previousRentInPennies: 9900, currentRentInPennies: 10900, rentChangeDate: '2025-07-01', rentChangeEffectiveDate: '2025-08-15' };
    const envelope = rentalEnvelope('rent-change', context, { rentChange }, at);
    expect(envelope).toEqual({
      eventId: `${ids.rental}-${at.getTime()}-rent-change`,
      type: 'rent-change',
      occurredAt: '2025-07-01T10:00:00.123Z',
      portfolio: 'acme',
      key: ids.rental,
      filters: { facilityUuid: ids.facility, unitType: ids.unitType, amenityUuids: ids.amenities },
      payload: { event: 'rent-change', eventId: `${ids.rental}-${at.getTime()}-rent-change`, ...context.base, rentChange },
    });
    expect(rentalEnvelope('moved-out', context, {}, at).payload).toEqual({
      event: 'moved-out',
      eventId: `${ids.rental}-${at.getTime()}-moved-out`,
      ...context.base,
    });
  });

  it('refuses an added object that breaks the event schema', async () => {
    const context = (await loadRentalEventContext(db, ids.rental))!;
    const rentChange = { previousRentInPennies: -1, currentRentInPennies: 1, rentChangeDate: '2025-07-01', rentChangeEffectiveDate: 'soon' };
    expect(() => rentalEnvelope('rent-change', context, { rentChange }, new Date())).toThrow(/rentChange/);
  });
});
