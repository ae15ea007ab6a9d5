import { TENANT_LIFECYCLE_TOPIC } from '@storage/domain';
import { createApiKey } from '../../src/auth/create-api-key';
import { startBareApi, type BareApi } from '../support/bare-api';
import { expectProblem, sentSigningLink } from '../support/test-api';
import { query, sql } from '@storage/persistence';

/** Uuids the operator chose (an import file's, a client's): retries name the same records. */
const uuid = (n: number): string => `0b0a7d00-0000-4000-8000-${String(n).padStart(12, '0')}`;
const ID = {
  climate: uuid(1),
  smartLock: uuid(2),
  plan: uuid(3),
  lock: uuid(4),
  premium: uuid(5),
  web: uuid(6),
  facility: uuid(10),
  size: uuid(11),
  group: uuid(12),
  units: [uuid(13), uuid(14)],
  coverage: uuid(15),
  promotion: uuid(16),
};
const OPS = '/api/acme/portfolios/v1';
const AT = `${OPS}/facilities/${ID.facility}`;

const FACILITY = {
  name: 'Acme Storage Midtown',
  addressLine1: '500 W 42nd St',
  city: 'New York',
  state: 'NY',
  zip: '10036',
  phone: '(212) 555-0199',
  timeZone: 'America/New_York',
  operatingHours: { monday: { open: '08:00', close: '18:00' }, saturday: { open: '09:00', close: '13:00' }, sunday: null },
};
const UNIT_GROUP = {
  sizeAndTypeGroupUuid: ID.size,
  description: '10x10 Climate Controlled',
  ratePlanUuid: ID.plan,
  baseStreetRateInPennies: 15000,
  baseWebRateInPennies: 14000,
  amenityUuids: [ID.smartLock],
};

let api: BareApi;
let admin: string;
beforeAll(async () => {
  api = await startBareApi();
  // What `npm run cli -- api-keys create --admin` does.
  admin = (await createApiKey(api.db, { portfolioIds: null, scope: 'admin', label: 'onboarding' })).key;
});
afterAll(async () => api.close());

/** Each PUT of the onboarding, in an order that satisfies its references, with the admin key. */
const ONBOARDING: [string, unknown][] = [
  [`${OPS}/unitTypes/${ID.climate}`, { description: 'Climate Controlled' }],
  [`${OPS}/amenities/${ID.smartLock}`, { description: 'Smart lock', isSmartAmenity: true }],
  [
    `${OPS}/ratePlans/${ID.plan}`,
    {
      name: 'Occupancy',
      occupancyBands: [
        { minOccupancyPercent: 0, maxOccupancyPercent: 50, streetAdjustmentPercent: 0, webAdjustmentPercent: -10 },
        { minOccupancyPercent: 50, maxOccupancyPercent: 100, streetAdjustmentPercent: 10, webAdjustmentPercent: 5 },
      ],
    },
  ],
  [`${OPS}/itemTypes/${ID.lock}`, { name: 'Disc lock', kind: 'SERVICE', priceInPennies: 500, isRecurring: true }],
  [`${OPS}/itemTypes/${ID.premium}`, { name: 'Coverage premium', kind: 'COVERAGE', priceInPennies: 0, isRecurring: true }],
  [`${OPS}/leadSources/${ID.web}`, { description: 'Website' }],
  [AT, FACILITY],
  [`${AT}/sizeAndTypeGroups/${ID.size}`, { unitTypeUuid: ID.climate, width: 10, length: 10, height: 8 }],
  [`${AT}/unitGroups/${ID.group}`, UNIT_GROUP],
  [`${AT}/units/${ID.units[0]}`, { unitGroupUuid: ID.group, name: '101' }],
  [`${AT}/units/${ID.units[1]}`, { unitGroupUuid: ID.group, name: '102', floor: '1' }],
  [
    `${AT}/coverages/${ID.coverage}`,
    {
      itemTypeUuid: ID.premium,
      premiumInPennies: 1200,
      coverageAmountInPennies: 300_000,
      description: '$3,000 of coverage',
      provider: 'SAFE_LEASE',
      isDefault: true,
    },
  ],
  [`${AT}/promotions/${ID.promotion}`, { name: 'First month half off', discountType: 'PERCENTAGE', percentage: 50 }],
  [`${AT}/delinquencySchedule`, { graceDays: 3, overlockDay: 7, lienDay: 30, auctionDay: 60, lateFeeInPennies: 1500 }],
];

describe('onboarding a portfolio through the api, from an empty database', () => {
  let key: string;

  it('an admin key creates the portfolio; a retry changes nothing', async () => {
    const created = await api.call('PUT', '/api/v1/portfolios/acme', { key: admin, body: { name: 'Acme Storage' } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ uuid: expect.any(String), portfolioId: 'acme', name: 'Acme Storage', outcome: 'created' });
    const again = await api.call('PUT', '/api/v1/portfolios/acme', { key: admin, body: { name: 'Acme Storage' } });
    expect(again.body).toEqual({ ...created.body, outcome: 'unchanged' });
  });

  it('writes every record of the portfolio, each PUT answering created, then unchanged when retried', async () => {
    for (const [url, body] of ONBOARDING) {
      const reply = await api.call('PUT', url, { key: admin, body });
      expect({ url, status: reply.status, outcome: reply.body.outcome }).toEqual({ url, status: 200, outcome: 'created' });
    }
    const before = await counts();
    for (const [url, body] of ONBOARDING) {
      const reply = await api.call('PUT', url, { key: admin, body });
      expect({ url, status: reply.status, outcome: reply.body.outcome }).toEqual({ url, status: 200, outcome: 'unchanged' });
    }
    expect(await counts()).toEqual(before);
    expect(before).toEqual({ facilities: 1, unit_groups: 1, units: 2, unit_group_amenities: 1, coverages: 1, promotions: 1, delinquency_schedules: 1 });
  });

  it('a portfolio key issued afterwards (api-keys create) works on the new portfolio but cannot create portfolios', async () => {
    key = (await createApiKey(api.db, { portfolioIds: ['acme'], scope: 'write' })).key;
    expectProblem(await api.call('PUT', '/api/v1/portfolios/other', { key, body: { name: 'Other' } }), 403);
    expect((await api.call('GET', '/api/portfolios', { key })).body).toEqual([{ portfolioId: 'acme', portfolioName: 'Acme Storage' }]);
    expect((await api.call('PUT', `${OPS}/leadSources/${uuid(30)}`, { key, body: { description: 'Walk-in' } })).body).toEqual({
      uuid: uuid(30),
      outcome: 'created',
    });
  });

  it('rents a unit of it through the shopping flow and lease signing', async () => {
    const catalog = await api.call('GET', '/shopping/acme/v1/facilities', { key });
    expect(catalog.status).toBe(200);
    expect(JSON.stringify(catalog.body)).toContain(ID.group);

    const sizes = await api.call('POST', `${AT}/unitGroups/sizeAndType/get_by_uuids`, { key, body: { sizeAndTypeUnitGroupUuids: [ID.size] } });
    const group = sizes.body[0].unitGroups[0];
    // Empty group: the 0-50 % band, web rate 10 % below base.
    expect(group).toEqual(
      expect.objectContaining({ unitGroupUuid: ID.group, numUnits: 2, numVacantUnits: 2, currentWebRateInPennies: 12600, currentStreetRateInPennies: 15000 }),
    );
    expect(group.amenities).toEqual([{ amenityUuid: ID.smartLock, description: 'Smart lock', isSmartAmenity: true }]);

    const promotions = await api.call('POST', '/shopping/acme/v1/promotions/eligible-auto-applied-promotions-with-highest-discount', {
      key,
      body: { facilityUuids: ID.facility, unitGroupUuids: [ID.group] },
    });
    expect(promotions.body[0].bestAutoAppliedPromotion).toEqual(expect.objectContaining({ promotionUuid: ID.promotion, highestDiscountAmount: 6300 }));

    const lead = await api.call('POST', '/shopping/acme/v1/leads', {
      key,
      body: { facilityUuid: ID.facility, unitGroupUuid: ID.group, firstName: 'Nia', lastName: 'Okoro', email: 'nia@example.com', leadSourceUuid: ID.web },
    });
    expect(lead.status).toBe(200);
    const leadUuid: string = lead.body.leadUuid;
    expect((await api.call('POST', `${AT}/leads/${leadUuid}/sendLease`, { key })).body).toBe('Lease sent by email.');
    const link = sentSigningLink(api.sentNotifications(), 'nia@example.com');
    const page = new URL(link).pathname;
    expect((await api.call('GET', page, { key: null })).text).toContain('Acme Storage Midtown, 500 W 42nd St, New York, NY 10036');
    const signed = await api.call('POST', page, { key: null, form: { agree: 'yes' } });
    expect(signed.status).toBe(200);
    expect(signed.text).toContain('Thank you, your lease is signed.');

    const details = await api.call('GET', `/shopping/acme/v1/facilities/tenant/${leadUuid}`, { key });
    expect(details.status).toBe(200);
    expect(details.body).toEqual(
      expect.objectContaining({
        unitName: '101',
        unitType: 'Climate Controlled',
        facilityName: 'Acme Storage Midtown',
        facilityPhone: '(212) 555-0199',
        gateAccessNumber: expect.stringMatching(/^\d{6}$/),
      }),
    );
    // Rent at the web rate, half off, plus the default coverage's premium.
    expect(details.body.amountDueAtMoveInInPennies).toBeGreaterThan(0);
    const after = await api.call('POST', `${AT}/unitGroups/sizeAndType/get_by_uuids`, { key, body: { sizeAndTypeUnitGroupUuids: [ID.size] } });
    expect(after.body[0].unitGroups[0]).toEqual(expect.objectContaining({ numVacantUnits: 1, currentWebRateInPennies: 14700 }));
    const events = await query(
      api.db,
      sql<{ type: string }>(
        `SELECT envelope->>'type' AS type FROM outbox WHERE topic = $1 AND key = (SELECT converted_rental_record_uuid::text FROM leads WHERE uuid = $2)`,
      ),
      [TENANT_LIFECYCLE_TOPIC, leadUuid],
    );
    expect(events).toEqual([{ type: 'moved-in' }]);
  });

  it('refuses what would break the portfolio, changing nothing', async () => {
    const before = await counts();
    // A rented unit stays in its group.
    const [rented] = await query(api.db, sql<{ uuid: string }>(`SELECT uuid FROM units WHERE status = 'occupied'`));
    await api.call('PUT', `${AT}/unitGroups/${uuid(40)}`, { key, body: UNIT_GROUP });
    expectProblem(await api.call('PUT', `${AT}/units/${rented.uuid}`, { key, body: { unitGroupUuid: uuid(40), name: '101' } }), 409);
    // A unit name is the facility's once; a uuid is one record's.
    expectProblem(await api.call('PUT', `${AT}/units/${uuid(41)}`, { key, body: { unitGroupUuid: ID.group, name: '102' } }), 409);
    expect((await api.call('PUT', '/api/v1/portfolios/other', { key: admin, body: { name: 'Other' } })).status).toBe(200);
    expectProblem(await api.call('PUT', `/api/other/portfolios/v1/leadSources/${ID.web}`, { key: admin, body: { description: 'Website' } }), 409);
    // References into the portfolio, time zones, stage order, band bounds.
    expectProblem(await api.call('PUT', `${AT}/unitGroups/${uuid(42)}`, { key, body: { ...UNIT_GROUP, ratePlanUuid: uuid(99) } }), 400, ['ratePlanUuid']);
    expectProblem(
      await api.call('PUT', `${AT}/coverages/${uuid(43)}`, {
        key,
        body: { itemTypeUuid: ID.lock, premiumInPennies: 1, coverageAmountInPennies: 1, description: 'x', provider: 'OTHER' },
      }),
      400,
      ['itemTypeUuid'],
    );
    expectProblem(await api.call('PUT', `${OPS}/facilities/${uuid(44)}`, { key, body: { ...FACILITY, timeZone: 'Mars/Olympus' } }), 400, ['timeZone']);
    expectProblem(
      await api.call('PUT', `${AT}/delinquencySchedule`, { key, body: { graceDays: 10, overlockDay: 5, lienDay: 30, auctionDay: 60, lateFeeInPennies: 0 } }),
      400,
    );
    expectProblem(await api.call('PUT', `${AT}/promotions/${uuid(45)}`, { key, body: { name: 'x', discountType: 'AMOUNT_OFF' } }), 400, ['amountInPennies']);
    expectProblem(await api.call('PUT', `${OPS}/facilities/${uuid(46)}/units/${uuid(47)}`, { key, body: { unitGroupUuid: ID.group, name: '9' } }), 404);
    expectProblem(await api.call('PUT', '/api/v1/portfolios/Not_An_Id', { key: admin, body: { name: 'x' } }), 400, ['portfolioId']);
    // Shapes: a missing or null object, null for an optional field (absent takes the default, null is refused), a list.
    expectProblem(await api.call('PUT', `${OPS}/facilities/${uuid(48)}`, { key, body: { ...FACILITY, operatingHours: undefined } }), 400, ['operatingHours']);
    expectProblem(await api.call('PUT', `${OPS}/facilities/${uuid(48)}`, { key, body: { ...FACILITY, operatingHours: null } }), 400, ['operatingHours']);
    expectProblem(
      await api.call('PUT', `${OPS}/facilities/${uuid(48)}`, { key, body: { ...FACILITY, operatingHours: { monday: { open: '25:00', close: '18:00' } } } }),
      400,
      ['operatingHours.monday.open'],
    );
    expectProblem(await api.call('PUT', `${OPS}/amenities/${uuid(49)}`, { key, body: { description: 'x', isSmartAmenity: null } }), 400, ['isSmartAmenity']);
    expectProblem(await api.call('PUT', `${AT}/unitGroups/${uuid(50)}`, { key, body: { ...UNIT_GROUP, amenityUuids: [ID.smartLock, ID.smartLock] } }), 400, [
      'amenityUuids',
    ]);
    expectProblem(await api.call('PUT', `${OPS}/ratePlans/${uuid(51)}`, { key, body: [] }), 400);
    expectProblem(await api.call('PUT', `${OPS}/ratePlans/${uuid(51)}`, { key, body: { name: 'x', occupancyBands: [null, 3] } }), 400, ['occupancyBands.0']);
    expectProblem(
      await api.call('PUT', `${OPS}/ratePlans/${uuid(51)}`, {
        key,
        body: { name: 'x', occupancyBands: [{ minOccupancyPercent: 60, maxOccupancyPercent: 50, streetAdjustmentPercent: 0, webAdjustmentPercent: 0 }] },
      }),
      400,
      ['occupancyBands.0.maxOccupancyPercent'],
    );
    expect(await counts()).toEqual({ ...before, unit_groups: before.unit_groups + 1, unit_group_amenities: before.unit_group_amenities + 1 });
  });

  it('holds the facility rules under concurrent PUTs: a unit name once, one default coverage', async () => {
    const WRITERS = 12;
    const units = await Promise.all(
      Array.from({ length: WRITERS }, (_, i) => api.call('PUT', `${AT}/units/${uuid(60 + i)}`, { key, body: { unitGroupUuid: ID.group, name: 'race-1' } })),
    );
    expect(units.map((reply) => reply.status).sort()).toEqual([200, ...Array<number>(WRITERS - 1).fill(409)]);
    expect(await query(api.db, sql(`SELECT count(*)::int AS n FROM units WHERE facility_uuid = $1 AND name = 'race-1'`), [ID.facility])).toEqual([{ n: 1 }]);

    const coverages = await Promise.all(
      Array.from({ length: WRITERS }, (_, i) =>
        api.call('PUT', `${AT}/coverages/${uuid(80 + i)}`, {
          key,
          body: {
            itemTypeUuid: ID.premium,
            premiumInPennies: 900 + i,
            coverageAmountInPennies: 200_000,
            description: `Plan ${i}`,
            provider: 'SAFE_LEASE',
            isDefault: true,
          },
        }),
      ),
    );
    expect(coverages.map((reply) => reply.status)).toEqual(Array<number>(WRITERS).fill(200));
    expect(await query(api.db, sql(`SELECT count(*)::int AS n FROM coverages WHERE facility_uuid = $1 AND is_default`), [ID.facility])).toEqual([{ n: 1 }]);
  });
});

/** Rows of the tables onboarding writes below the portfolio. */
async function counts(): Promise<Record<string, number>> {
  const tables = ['facilities', 'unit_groups', 'units', 'unit_group_amenities', 'coverages', 'promotions', 'delinquency_schedules'];
  const entries = await Promise.all(
    tables.map(async (table) => [table, (await query(api.db, sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)))[0].n] as const),
  );
  return Object.fromEntries(entries);
}
