import { PRIVATE_COVERAGE_UUID } from '@storage/domain';
import { expectProblem, id, ISO, list, startTestApi, UUID, type TestApi } from './support/test-api';
import { query, sql } from '@storage/persistence';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api.close());

const downtown = id('facility:downtown');
const PROMOTIONS = '/shopping/demo/v1/promotions/eligible-auto-applied-promotions-with-highest-discount';

describe('operation 1: eligible auto-applied promotions', () => {
  // Downtown 5x5: web rate 4400 at 87.5 % occupancy, +5 % band → 4620.
  const small = id('unit-group:downtown:5x5:1');
  const lock = id('item-type:lock');
  const trash = id('item-type:trash');

  it('answers one entry per unit group with the rent winner and service winners, field by field', async () => {
    const reply = await api.call('POST', PROMOTIONS, { body: { facilityUuids: downtown, unitGroupUuids: [small] } });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([
      {
        facilityUuid: downtown,
        unitGroupUuid: small,
        bestAutoAppliedPromotion: {
          facilityUuid: downtown,
          unitGroupUuid: small,
          promotionUuid: id('promotion:downtown:one-dollar'),
          promotionName: '$1 first month',
          highestDiscountAmount: 4520,
        },
        serviceWinners: [
          {
            facilityUuid: downtown,
            unitGroupUuid: small,
            promotionUuid: id('promotion:downtown:lock-2-off'),
            promotionName: '$2 off lock for 3 months',
            highestDiscountAmount: 600,
            itemTypeUuid: lock,
            itemTypeName: 'Disc lock rental',
          },
        ],
      },
    ]);
  });

  it('honours business tenants and autopay', async () => {
    const business = await api.call('POST', PROMOTIONS, { body: { facilityUuids: downtown, unitGroupUuids: [small], isForBusiness: true } });
    expect(business.body[0].bestAutoAppliedPromotion).toMatchObject({ promotionName: '$25 off for 3 months (business)', highestDiscountAmount: 7500 });
    const autopay = await api.call('POST', PROMOTIONS, { body: { facilityUuids: downtown, unitGroupUuids: [small], isAutopayEnabled: true } });
    expect(
      list<{ itemTypeUuid: string; highestDiscountAmount: number }>(autopay.body[0].serviceWinners).map((w) => [w.itemTypeUuid, w.highestDiscountAmount]),
    ).toEqual(
      [
        [lock, 600],
        [trash, 1500],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
  });

  it('covers every unit group of the facility when no unit groups are given', async () => {
    const reply = await api.call('POST', PROMOTIONS, { body: { facilityUuids: downtown.toUpperCase() } });
    expect(reply.status).toBe(200);
    expect(reply.body).toHaveLength(8);
    for (const entry of reply.body)
      expect(entry).toEqual(expect.objectContaining({ facilityUuid: downtown, unitGroupUuid: expect.stringMatching(UUID), serviceWinners: expect.any(Array) }));
  });

  it('refuses bad input with the fields at fault, and an unknown facility with 404', async () => {
    expectProblem(await api.call('POST', PROMOTIONS, { body: {} }), 400, ['facilityUuids']);
    expectProblem(await api.call('POST', PROMOTIONS, { body: { facilityUuids: [downtown] } }), 400, ['facilityUuids']);
    expectProblem(
      await api.call('POST', PROMOTIONS, { body: { facilityUuids: downtown, unitGroupUuids: ['nope'], isForBusiness: 'yes', isAutopayEnabled: 1 } }),
      400,
      ['unitGroupUuids', 'isForBusiness', 'isAutopayEnabled'],
    );
    expectProblem(await api.call('POST', PROMOTIONS, { body: { facilityUuids: downtown, unitGroupUuids: 'x' } }), 400, ['unitGroupUuids']);
    expectProblem(await api.call('POST', PROMOTIONS, { body: [1, 2] }), 400);
    expectProblem(await api.call('POST', PROMOTIONS, { body: { facilityUuids: id('facility:nowhere') } }), 404);
  });
});

describe('returning tenant: check-preexisting and operation 2', () => {
  const CHECK = '/shopping/demo/v1/facilities/tenant/check-preexisting';
  const VALIDATE = '/shopping/demo/v1/facilities/tenant/validate-preexisting';
  let email: string;
  let personUuid: string;

  beforeAll(async () => {
    const [person] = await query(api.db, sql<{ uuid: string; email: string }>(`SELECT uuid, email FROM persons WHERE uuid = $1`), [id('person:0')]);
    email = person.email;
    personUuid = person.uuid;
  });

  // The code as mailed: notifications keep it hidden.
  const latestCode = async (): Promise<string> => {
    const mailed = api.sentNotifications().filter((n) => n.recipient === email);
    return /code is (\d{6})/.exec(mailed.at(-1)!.body)![1];
  };

  it('sends a code to a known tenant and says when it expires; an unknown email gets exists false', async () => {
    const known = await api.call('POST', CHECK, { body: { facilityUuid: downtown, email: email.toUpperCase() } });
    expect(known.status).toBe(200);
    expect(known.body).toEqual({ exists: true, expiration: expect.stringMatching(ISO) });
    expect(Date.parse(known.body.expiration)).toBeGreaterThan(Date.now());
    const unknown = await api.call('POST', CHECK, { body: { facilityUuid: downtown, email: 'nobody@example.com' } });
    expect(unknown.body).toEqual({ exists: false, expiration: null });
  });

  it('validates the code: wrong → not valid; right → valid with personalInfo and a prefilled lead', async () => {
    await api.call('POST', CHECK, { body: { facilityUuid: downtown, email } });
    const code = await latestCode();
    const wrong = await api.call('POST', VALIDATE, { body: { facilityUuid: downtown, email, code: code === '000000' ? '000001' : '000000' } });
    expect(wrong.body).toEqual({ valid: false, expired: false, personalInfo: null, createdLead: null });

    const right = await api.call('POST', VALIDATE, { body: { facilityUuid: downtown, email, code } });
    expect(right.status).toBe(200);
    expect(right.body.valid).toBe(true);
    expect(right.body.expired).toBe(false);
    expect(right.body.createdLead).toEqual({ leadUuid: expect.stringMatching(UUID), verifyToken: expect.any(String) });
    const info = right.body.personalInfo;
    expect(info).toMatchObject({
      personUuid,
      email,
      firstName: 'Ava',
      isPreviousTenant: true,
      facilityUuid: downtown,
      leadUuid: right.body.createdLead.leadUuid,
    });
    for (const field of ['phone', 'addressLine1', 'city', 'state', 'country', 'zip', 'idType', 'idCode', 'accountType'])
      expect(typeof info[field]).toBe('string');
    for (const field of ['isSmsEnrolled', 'haveAlternateContact', 'haveMilitary', 'haveVehicle', 'haveLienHolder']) expect(typeof info[field]).toBe('boolean');
    expect(info.dateOfBirth).toMatch(ISO);
    const [lead] = await query(api.db, sql('SELECT person_uuid, verify_token, status FROM leads WHERE uuid = $1'), [right.body.createdLead.leadUuid]);
    expect(lead).toEqual({ person_uuid: personUuid, verify_token: right.body.createdLead.verifyToken, status: 'OPEN' });

    // A code works once.
    expect((await api.call('POST', VALIDATE, { body: { facilityUuid: downtown, email, code } })).body.valid).toBe(false);
  });

  it('reports an expired code as expired', async () => {
    await api.call('POST', CHECK, { body: { facilityUuid: downtown, email } });
    const code = await latestCode();
    // Expired a minute ago: time no operation moves, so the test ages its own row.
    await query(api.db, sql(`UPDATE tenant_verification_codes SET expires_at = now() - interval '1 minute' WHERE person_uuid = $1 AND used_at IS NULL`), [
      personUuid,
    ]);
    const reply = await api.call('POST', VALIDATE, { body: { facilityUuid: downtown, email, code } });
    expect(reply.body).toEqual({ valid: false, expired: true, personalInfo: null, createdLead: null });
  });

  it('stops accepting a code after five wrong guesses', async () => {
    await api.call('POST', CHECK, { body: { facilityUuid: downtown, email } });
    const code = await latestCode();
    const wrong = code === '999999' ? '999998' : '999999';
    for (let i = 0; i < 5; i++) await api.call('POST', VALIDATE, { body: { facilityUuid: downtown, email, code: wrong } });
    expect((await api.call('POST', VALIDATE, { body: { facilityUuid: downtown, email, code } })).body.valid).toBe(false);
  });

  it('refuses bad input', async () => {
    expectProblem(await api.call('POST', VALIDATE, { body: { facilityUuid: 'x', email: 'not-an-email', code: '12' } }), 400, ['facilityUuid', 'email', 'code']);
    expectProblem(await api.call('POST', VALIDATE, { body: {} }), 400, ['facilityUuid', 'email', 'code']);
    expectProblem(await api.call('POST', CHECK, { body: { facilityUuid: downtown } }), 400, ['email']);
    expectProblem(await api.call('POST', CHECK, { body: { facilityUuid: id('facility:nowhere'), email } }), 404);
  });
});

describe('operation 3: converted lead details', () => {
  it('answers the unit, gate, facility and rental of a converted lead, field by field', async () => {
    const reply = await api.call('GET', `/shopping/demo/v1/facilities/tenant/${id('lead:4')}`);
    expect(reply.status).toBe(200);
    const [rental] = await query(
      api.db,
      sql<{
        uuid: string;
        name: string;
        floor: string;
        code: string;
        start: string;
        moveIn: number;
      }>(`SELECT r.uuid, u.name, u.floor, g.code, to_char(r.start_date, 'YYYY-MM-DD') AS start,
              (SELECT coalesce(sum(e.amount_in_pennies), 0)::int FROM rental_ledger_entries e WHERE e.rental_record_uuid = r.uuid
                  AND (e.period_from = r.start_date OR e.applies_to IN (SELECT c.uuid FROM rental_ledger_entries c WHERE c.period_from = r.start_date))) AS "moveIn"
         FROM rental_records r JOIN units u ON u.uuid = r.unit_uuid
         JOIN gate_codes g ON g.rental_record_uuid = r.uuid WHERE r.lead_uuid = $1`),
      [id('lead:4')],
    );
    expect(reply.body).toEqual({
      unitName: rental.name,
      unitType: 'Climate Controlled',
      floor: rental.floor,
      gateAccessNumber: rental.code,
      rentalStartDate: rental.start,
      facilityName: 'Downtown Self Storage',
      facilityAddress: '120 Hudson St, New York, NY 10013',
      facilityOperatingHours: expect.objectContaining({ monday: { open: '08:00', close: '20:00' }, sunday: null }),
      facilityPhone: '(212) 555-0142',
      // The first period's charges net of promotions; signing a lease is where they are posted (lifecycle tests).
      amountDueAtMoveInInPennies: rental.moveIn,
      // The rental the operator routes act on (extension).
      unitRentalRecordUuid: rental.uuid,
    });
    expect(reply.body.rentalStartDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('is 404 until the lead is converted, and 400 for a malformed UUID', async () => {
    expectProblem(await api.call('GET', `/shopping/demo/v1/facilities/tenant/${id('lead:1')}`), 404);
    expectProblem(await api.call('GET', `/shopping/demo/v1/facilities/tenant/${id('lead:none')}`), 404);
    expectProblem(await api.call('GET', '/shopping/demo/v1/facilities/tenant/123'), 400, ['leadUuid']);
  });
});

describe('operation 4: coverages of a facility', () => {
  it('lists the options of every provider, field by field', async () => {
    const reply = await api.call('GET', `/shopping/demo/v1/coverages/${downtown}`);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.body).toHaveLength(5);
    expect(
      list<{ provider: string }>(reply.body)
        .map((c) => c.provider)
        .sort(),
    ).toEqual(['OTHER', 'RV_PARK_N_PROTECT', 'SAFE_LEASE', 'SECURE_LEASE', 'STORAGE_SHIELD']);
    expect(reply.body[0]).toEqual({
      coverageUuid: id('coverage:downtown:SAFE_LEASE'),
      itemTypeUuid: id('item-type:coverage:SAFE_LEASE'),
      premiumInPennies: 900,
      coverageAmountInPennies: 200000,
      description: '2,000 dollars of coverage',
      provider: 'SAFE_LEASE',
      allowManualChanges: false,
      providerDescription: 'safe lease protection plan',
      isDefault: true,
    });
    expect(list<{ coverageUuid: string }>(reply.body).every((c) => c.coverageUuid !== PRIVATE_COVERAGE_UUID)).toBe(true);
  });

  it('is 404 for an unknown facility and 400 for a malformed one', async () => {
    expectProblem(await api.call('GET', `/shopping/demo/v1/coverages/${id('facility:nowhere')}`), 404);
    expectProblem(await api.call('GET', '/shopping/demo/v1/coverages/zzz'), 400, ['facilityUuid']);
  });
});

describe('operation 5: lead sources', () => {
  it('lists the portfolio’s lead sources', async () => {
    const reply = await api.call('GET', '/shopping/demo/v1/lead-sources');
    expect(reply.status).toBe(200);
    expect(reply.body).toHaveLength(5);
    expect(reply.body).toContainEqual({ leadSourceUuid: id('lead-source:Website'), description: 'Website' });
    for (const source of reply.body) expect(Object.keys(source).sort()).toEqual(['description', 'leadSourceUuid']);
  });
});

describe('shopping extensions', () => {
  it('lists facilities with their unit groups', async () => {
    const reply = await api.call('GET', '/shopping/demo/v1/facilities');
    expect(reply.status).toBe(200);
    expect(list<{ name: string }>(reply.body).map((f) => f.name)).toEqual(['Desert Sun Storage', 'Downtown Self Storage', 'Lakeside Storage']);
    const facility = reply.body[1];
    expect(facility).toMatchObject({ facilityUuid: downtown, timeZone: 'America/New_York', address: { city: 'New York', state: 'NY' } });
    expect(facility.unitGroups).toHaveLength(8);
    expect(facility.unitGroups[0]).toEqual(
      expect.objectContaining({ unitGroupUuid: expect.stringMatching(UUID), currentWebRateInPennies: expect.any(Number), numVacantUnits: expect.any(Number) }),
    );
  });

  it('creates a lead with its person, and names the fields at fault', async () => {
    const body = {
      facilityUuid: downtown,
      unitGroupUuid: id('unit-group:downtown:5x5:1'),
      firstName: 'Rosa',
      lastName: 'Diaz',
      email: 'Rosa@Example.com',
      phone: '(646) 555-0101',
      leadSourceUuid: id('lead-source:Website'),
    };
    const reply = await api.call('POST', '/shopping/demo/v1/leads', { body });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ leadUuid: expect.stringMatching(UUID) });
    const [row] = await query(api.db, sql('SELECT p.email, p.phone, l.status FROM leads l JOIN persons p ON p.uuid = l.person_uuid WHERE l.uuid = $1'), [
      reply.body.leadUuid,
    ]);
    expect(row).toEqual({ email: 'rosa@example.com', phone: '6465550101', status: 'OPEN' });

    expectProblem(await api.call('POST', '/shopping/demo/v1/leads', { body: { facilityUuid: downtown, firstName: 'A', lastName: 'B' } }), 400, [
      'email',
      'phone',
    ]);
    expectProblem(await api.call('POST', '/shopping/demo/v1/leads', { body: { ...body, phone: '555-12' } }), 400, ['phone']);
    expectProblem(await api.call('POST', '/shopping/demo/v1/leads', { body: { ...body, unitGroupUuid: id('unit-group:lakeside:5x5:1') } }), 400, [
      'unitGroupUuid',
    ]);
    expectProblem(await api.call('POST', '/shopping/demo/v1/leads', { body: { ...body, desiredMoveInDate: '2025-02-30' } }), 400, ['desiredMoveInDate']);
  });
});
