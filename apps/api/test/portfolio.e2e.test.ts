import { PRIVATE_COVERAGE_UUID } from '@storage/domain';
import { expectProblem, id, ISO, list, startTestApi, UUID, type TestApi } from './support/test-api';
import { query, sql } from '@storage/persistence';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api.close());

const downtown = id('facility:downtown');
const base = '/api/demo/portfolios/v1';

describe('operation 6: portfolios', () => {
  it('lists only the portfolios the key reaches', async () => {
    expect((await api.call('GET', '/api/portfolios')).body).toEqual([{ portfolioName: 'Demo Storage Co.', portfolioId: 'demo' }]);
    expect((await api.call('GET', '/api/portfolios', { key: api.keys.other })).body).toEqual([{ portfolioName: 'Other Co.', portfolioId: 'other' }]);
  });
});

describe('operation 7: size-and-type unit groups by UUIDs', () => {
  const url = `${base}/facilities/${downtown}/unitGroups/sizeAndType/get_by_uuids`;

  it('answers the groups asked for with their unit groups, field by field', async () => {
    const sizeUuid = id('size:downtown:10x10');
    const reply = await api.call('POST', url, { body: { sizeAndTypeUnitGroupUuids: [sizeUuid, id('size:lakeside:10x10'), id('size:none')] } });
    expect(reply.status).toBe(200);
    expect(reply.body).toHaveLength(1);
    const [group] = reply.body;
    expect(group).toEqual({
      sizeAndTypeUnitGroupUuid: sizeUuid,
      length: 10,
      width: 10,
      height: 8,
      area: '100 sq ft',
      unitType: 'Climate Controlled',
      entityAttributeOrganizationUuid: id('unit-type:Climate Controlled'),
      unitGroups: expect.any(Array),
    });
    const [tier1, tier2] = group.unitGroups;
    const [stats] = await query(
      api.db,
      sql<{ units: number; vacant: number; avg: number }>(`SELECT count(*)::int AS units, count(*) FILTER (WHERE status = 'vacant')::int AS vacant,
              (SELECT avg(rent_in_pennies)::float8 FROM rental_records WHERE unit_group_uuid = $1 AND status = 'ACTIVE') AS avg
       FROM units WHERE unit_group_uuid = $1`),
      [id('unit-group:downtown:10x10:1')],
    );
    expect(tier1).toEqual({
      unitGroupUuid: id('unit-group:downtown:10x10:1'),
      description: '10x10 Climate Controlled',
      tierLevel: 1,
      currentStreetRateInPennies: 12900,
      currentWebRateInPennies: 12028,
      numUnits: stats.units,
      numVacantUnits: stats.vacant,
      averageCurrentRentInPennies: stats.avg,
      ratePlanUuid: id('rate-plan:occupancy'),
      amenities: [{ amenityUuid: id('amenity:climate'), description: 'Climate controlled', isSmartAmenity: false }],
      canShowUnitGroupTenantPortal: true,
    });
    expect(tier2.tierLevel).toBe(2);
    expect(list<{ isSmartAmenity: boolean }>(tier2.amenities).map((a) => a.isSmartAmenity)).toContain(true);
  });

  it('refuses bad input and unknown facilities', async () => {
    expectProblem(await api.call('POST', url, { body: {} }), 400, ['sizeAndTypeUnitGroupUuids']);
    expectProblem(await api.call('POST', url, { body: { sizeAndTypeUnitGroupUuids: ['x'] } }), 400, ['sizeAndTypeUnitGroupUuids']);
    expectProblem(await api.call('POST', url, { body: { sizeAndTypeUnitGroupUuids: 'x' } }), 400, ['sizeAndTypeUnitGroupUuids']);
    expectProblem(
      await api.call('POST', `${base}/facilities/${id('facility:none')}/unitGroups/sizeAndType/get_by_uuids`, { body: { sizeAndTypeUnitGroupUuids: [] } }),
      404,
    );
    expectProblem(await api.call('POST', `${base}/facilities/nope/unitGroups/sizeAndType/get_by_uuids`, { body: { sizeAndTypeUnitGroupUuids: [] } }), 400, [
      'facilityUuid',
    ]);
  });
});

describe('operation 8: vehicles by UUIDs', () => {
  it('answers the vehicles asked for, field by field', async () => {
    const [vehicle] = await query(
      api.db,
      sql<{ uuid: string; rental_record_uuid: string }>(`SELECT uuid, rental_record_uuid FROM vehicles WHERE facility_uuid = $1 ORDER BY uuid LIMIT 1`),
      [downtown],
    );
    const reply = await api.call('POST', `${base}/facilities/${downtown}/vehicles/get_by_uuids`, {
      body: { vehicleUuids: [vehicle.uuid, id('vehicle:none')] },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([
      {
        facilityUuid: downtown,
        rentalRecordUuid: vehicle.rental_record_uuid,
        vehicleUuid: vehicle.uuid,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
        type: expect.any(String),
        licensePlateNumber: expect.stringMatching(/^DMO\d+$/),
        make: expect.any(String),
        model: expect.any(String),
        vin: expect.stringMatching(/^1HGCM/),
      },
    ]);
  });

  it('does not answer another facility’s vehicles, and refuses bad input', async () => {
    const [vehicle] = await query(api.db, sql<{ uuid: string }>(`SELECT uuid FROM vehicles WHERE facility_uuid = $1 LIMIT 1`), [id('facility:lakeside')]);
    expect((await api.call('POST', `${base}/facilities/${downtown}/vehicles/get_by_uuids`, { body: { vehicleUuids: [vehicle.uuid] } })).body).toEqual([]);
    expectProblem(await api.call('POST', `${base}/facilities/${downtown}/vehicles/get_by_uuids`, { body: { vehicleUuids: [1] } }), 400, ['vehicleUuids']);
  });
});

describe('operation 9: coverage history by UUIDs', () => {
  it('answers enrollments, ended ones and private coverage included, field by field', async () => {
    const rows = await query(
      api.db,
      sql(`SELECT e.uuid, e.rental_record_uuid, e.coverage_uuid, u.name FROM coverage_enrollments e JOIN rental_records r ON r.uuid = e.rental_record_uuid
       JOIN units u ON u.uuid = r.unit_uuid WHERE e.facility_uuid = $1 AND (e.coverage_uuid = $2 OR e.end_date IS NOT NULL) ORDER BY e.start_date`),
      [downtown, PRIVATE_COVERAGE_UUID],
    );
    const ended = list<{ uuid: string; rental_record_uuid: string; coverage_uuid: string; name: string }>(rows).find(
      (row) => row.coverage_uuid !== PRIVATE_COVERAGE_UUID,
    )!;
    const own = list<{ uuid: string; coverage_uuid: string }>(rows).find((row) => row.coverage_uuid === PRIVATE_COVERAGE_UUID)!;
    const reply = await api.call('POST', `${base}/facilities/${downtown}/coverageHistory/get_by_uuids`, {
      body: { coverageHistoryUuids: [ended.uuid, own.uuid] },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toHaveLength(2);
    const byUuid = new Map(list<{ monumentCoverageEnrollmentUuid: string }>(reply.body).map((r) => [r.monumentCoverageEnrollmentUuid, r]));
    expect(byUuid.get(ended.uuid)).toEqual({
      monumentCoverageEnrollmentUuid: ended.uuid,
      unitRentalRecordUuid: ended.rental_record_uuid,
      coverageStartDate: expect.stringMatching(ISO),
      unitNumber: ended.name,
      coverageUuid: ended.coverage_uuid,
      coveragePremium: expect.any(Number),
      coverageAmount: expect.any(Number),
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
      coverageEndDate: expect.stringMatching(ISO),
      partnerCoverageId: null,
    });
    expect(byUuid.get(own.uuid)).toMatchObject({
      coverageUuid: PRIVATE_COVERAGE_UUID,
      coverageEndDate: null,
      partnerCoverageId: expect.stringMatching(/^POL-/),
    });
  });

  it('refuses bad input', async () => {
    expectProblem(await api.call('POST', `${base}/facilities/${downtown}/coverageHistory/get_by_uuids`, { body: { coverageHistoryUuids: ['1111'] } }), 400, [
      'coverageHistoryUuids',
    ]);
    expectProblem(await api.call('POST', `${base}/facilities/${downtown}/coverageHistory/get_by_uuids`, { body: {} }), 400, ['coverageHistoryUuids']);
  });
});

describe('operation 10: patch unit group base rates', () => {
  const group = id('unit-group:downtown:10x10:1');
  const url = `${base}/facilities/${downtown}/unitGroups/${group}/rate`;

  it('sets the base rates and recomputes the current ones from occupancy and the rate plan', async () => {
    // 8 of 10 units occupied: the 50-85 % band, street +0 %, web -3 %.
    const reply = await api.call('PATCH', url, { body: { baseWebRateInPennies: 10000, baseStreetRateInPennies: 11000 } });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      unitGroupUuid: group,
      baseStreetRateInPennies: 11000,
      baseWebRateInPennies: 10000,
      currentStreetRateInPennies: 11000,
      currentWebRateInPennies: 9700,
      occupancyPercent: 80,
    });
    const [row] = await query(
      api.db,
      sql('SELECT base_web_rate_in_pennies, current_web_rate_in_pennies, current_street_rate_in_pennies FROM unit_groups WHERE uuid = $1'),
      [group],
    );
    expect(row).toEqual({ base_web_rate_in_pennies: 10000, current_web_rate_in_pennies: 9700, current_street_rate_in_pennies: 11000 });
    const partial = await api.call('PATCH', url, { body: { baseWebRateInPennies: 20000 } });
    expect(partial.body).toMatchObject({ baseStreetRateInPennies: 11000, baseWebRateInPennies: 20000, currentWebRateInPennies: 19400 });
  });

  it('refuses bad rates and unknown unit groups', async () => {
    expectProblem(await api.call('PATCH', url, { body: { baseWebRateInPennies: -1, baseStreetRateInPennies: 12.5 } }), 400, [
      'baseWebRateInPennies',
      'baseStreetRateInPennies',
    ]);
    expectProblem(await api.call('PATCH', url, { body: { baseWebRateInPennies: '100' } }), 400, ['baseWebRateInPennies']);
    expectProblem(await api.call('PATCH', url, { body: {} }), 400);
    // null is a value, not an absence: refused, never taken for "keep the current rate".
    expectProblem(await api.call('PATCH', url, { body: { baseWebRateInPennies: null, baseStreetRateInPennies: 100 } }), 400, ['baseWebRateInPennies']);
    expectProblem(
      await api.call('PATCH', `${base}/facilities/${id('facility:lakeside')}/unitGroups/${group}/rate`, { body: { baseWebRateInPennies: 1 } }),
      404,
    );
    expectProblem(await api.call('PATCH', `${base}/facilities/${downtown}/unitGroups/not-a-uuid/rate`, { body: { baseWebRateInPennies: 1 } }), 400, [
      'unitGroupUuid',
    ]);
  });
});

describe('operation 11: update person', () => {
  const person = id('person:1');
  const url = `${base}/tenants/person/${person}`;

  it.each([
    ['(212) 555-0147', '2125550147'],
    ['212-555-0148', '2125550148'],
    ['2125550149', '2125550149'],
  ])('accepts the phone format %s', async (phone, stored) => {
    const reply = await api.call('PATCH', url, { body: { phone } });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ personUuid: person, email: expect.any(String), phone: stored });
  });

  it('updates the email', async () => {
    const reply = await api.call('PATCH', url, { body: { email: 'Liam.New@Example.com', phone: '(312) 555-0100' } });
    expect(reply.body).toEqual({ personUuid: person, email: 'liam.new@example.com', phone: '3125550100' });
  });

  it.each([['555-0147'], ['(112) 555-0147'], ['212.555.0147'], ['+1 212 555 0147'], ['(212)555-0147']])('refuses the phone %s', async (phone) => {
    expectProblem(await api.call('PATCH', url, { body: { phone } }), 400, ['phone']);
  });

  it('refuses a bad email, an empty body and unknown persons', async () => {
    expectProblem(await api.call('PATCH', url, { body: { email: 'nope' } }), 400, ['email']);
    expectProblem(await api.call('PATCH', url, { body: { email: 5 } }), 400, ['email']);
    expectProblem(await api.call('PATCH', url, { body: { email: null, phone: '(555) 555-0123' } }), 400, ['email']);
    expectProblem(await api.call('PATCH', url, { body: {} }), 400);
    expectProblem(await api.call('PATCH', `${base}/tenants/person/${id('person:none')}`, { body: { email: 'a@b.co' } }), 404);
  });
});

describe('operation 12: lead note', () => {
  const url = `${base}/notes/lead/${id('lead:1')}`;

  it('creates a note of up to 1,500 characters', async () => {
    const reply = await api.call('POST', url, { body: { noteText: 'x'.repeat(1500) } });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ noteUuid: expect.stringMatching(UUID) });
    const [note] = await query(api.db, sql('SELECT lead_uuid, length(note_text) AS length FROM notes WHERE uuid = $1'), [reply.body.noteUuid]);
    expect(note).toEqual({ lead_uuid: id('lead:1'), length: 1500 });
  });

  it('refuses 1,501 characters, a missing text and unknown leads', async () => {
    expectProblem(await api.call('POST', url, { body: { noteText: 'x'.repeat(1501) } }), 400, ['noteText']);
    expectProblem(await api.call('POST', url, { body: {} }), 400, ['noteText']);
    expectProblem(await api.call('POST', url, { body: { noteText: 42 } }), 400, ['noteText']);
    expectProblem(await api.call('POST', `${base}/notes/lead/${id('lead:none')}`, { body: { noteText: 'hi' } }), 404);
  });
});

describe('operation 14: gate access code', () => {
  it('answers the rental’s code as a JSON string', async () => {
    const reply = await api.call('GET', `${base}/facilities/${downtown}/rentalRecords/${id('rental:0')}/gateAccessCode`);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    const [gate] = await query(api.db, sql<{ code: string }>('SELECT code FROM gate_codes WHERE rental_record_uuid = $1'), [id('rental:0')]);
    expect(reply.body).toBe(gate.code);
  });

  it('is 404 for a rental of another facility or none, 400 for a malformed UUID', async () => {
    expectProblem(await api.call('GET', `${base}/facilities/${id('facility:lakeside')}/rentalRecords/${id('rental:0')}/gateAccessCode`), 404);
    expectProblem(await api.call('GET', `${base}/facilities/${downtown}/rentalRecords/${id('rental:none')}/gateAccessCode`), 404);
    expectProblem(await api.call('GET', `${base}/facilities/${downtown}/rentalRecords/abc/gateAccessCode`), 400, ['unitRentalRecordUuid']);
  });
});
