import type { DataSource } from 'typeorm';
import { bringToAuction } from './delinquency';
import { id, type TestApi } from './test-api';
import { query, sql } from '@storage/persistence';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteCall {
  /** The operation: its method and its path as the OpenAPI document names them. */
  operation: string;
  method: Method;
  url: string;
  body?: unknown;
  write: boolean;
  /**
   * `portfolio`: about portfolio `demo`, so a key of another portfolio gets 404. `key`: about the portfolios of
   * the key itself (operation 6), so another key gets its own. `admin`: an admin key's alone (creating
   * portfolios), so every portfolio key gets 403.
   */
  reach: 'portfolio' | 'key' | 'admin';
}

interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  write: boolean;
  reach?: RouteCall['reach'];
}

/** A call of the operation at `template`, its `{parameters}` filled in (portfolio `demo` unless given). */
function call(method: Method, template: string, options: CallOptions): RouteCall {
  const params: Record<string, string> = { portfolio: 'demo', ...options.params };
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`${method} ${template}: no value for {${name}}`);
    return params[name];
  });
  const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
  return { operation: `${method} ${template}`, method, url: path + query, body: options.body, write: options.write, reach: options.reach ?? 'portfolio' };
}

const SHOP = '/shopping/{portfolio}/v1';
const OPS = '/api/{portfolio}/portfolios/v1';
const RENTAL = `${OPS}/facilities/{facilityUuid}/rentalRecords/{unitRentalRecordUuid}`;
const HOOKS = '/api/v1/webhooks';
const HOOK_URL = 'https://93.184.216.34/hooks/walk';

const downtown = id('facility:downtown');
/** Rentals the look-ups below read (operations 8, 9, 14): the state-changing calls leave them alone. */
const READ_RENTALS = [id('rental:0'), id('rental:1'), id('rental:6')];

/** Calls that each need a rental of their own (payment … auction completion, below). */
const STATE_CHANGING_CALLS = 14;

interface Fixture {
  today: string;
  /** Active downtown rentals without a lock service, each for one state-changing call. */
  rentals: { uuid: string; rent: number }[];
  lockRental: string;
  vacantUnit: string;
}

async function fixture(db: DataSource): Promise<Fixture> {
  const rows = await query(
    db,
    sql<{
      uuid: string;
      rent: number;
      hasLock: boolean;
      today: string;
    }>(`SELECT r.uuid, r.rent_in_pennies AS rent, (now() AT TIME ZONE f.time_zone)::date::text AS today,
            EXISTS (SELECT 1 FROM rental_services s WHERE s.rental_record_uuid = r.uuid AND s.item_type_uuid = $2 AND s.end_date IS NULL) AS "hasLock"
       FROM rental_records r JOIN facilities f ON f.uuid = r.facility_uuid
      WHERE r.facility_uuid = $1 AND r.status = 'ACTIVE' AND r.uuid <> ALL($3::uuid[])
      ORDER BY r.uuid`),
    [downtown, id('item-type:lock'), READ_RENTALS],
  );
  // A vacant unit of a group with another one left, so operation 13's lease still finds a unit after the transfer.
  const [unit] = await query(
    db,
    sql<{ uuid: string }>(`SELECT u.uuid FROM units u
      WHERE u.facility_uuid = $1 AND u.status = 'vacant'
        AND (SELECT count(*) FROM units v WHERE v.unit_group_uuid = u.unit_group_uuid AND v.status = 'vacant') > 1
      ORDER BY u.name LIMIT 1`),
    [downtown],
  );
  const rentals = rows.filter((row) => !row.hasLock);
  const lockRental = rows.find((row) => row.hasLock);
  if (rentals.length < STATE_CHANGING_CALLS || lockRental === undefined || unit === undefined)
    throw new Error('the demo seed has too few downtown rentals or units');
  return { today: rows[0].today, rentals, lockRental: lockRental.uuid, vacantUnit: unit.uuid };
}

/**
 * A valid call of every API-key route the app serves, each one the demo write key would make succeed.
 * Prepares what those calls need with the write key: rentals in auction (one paused, three with an auction
 * scheduled) and a webhook subscription.
 */
export async function walkRoutes(api: TestApi): Promise<RouteCall[]> {
  const { today, rentals, lockRental, vacantUnit } = await fixture(api.db);
  const [payment, moveOut, rentChange, addService, transfer, pause, resume, writeOff, schedule, update, cancel, complete, enableAutopay, disableAutopay] =
    rentals;
  const rental = (uuid: string) => ({ facilityUuid: downtown, unitRentalRecordUuid: uuid });

  for (const inAuction of [pause, resume, writeOff, schedule, update, cancel, complete]) await bringToAuction(api.db, inAuction.uuid);
  const prepared = [await api.call('POST', `/api/demo/portfolios/v1/facilities/${downtown}/rentalRecords/${resume.uuid}/delinquency/pause`)];
  for (const scheduled of [update, cancel, complete]) {
    prepared.push(
      await api.call('POST', `/api/demo/portfolios/v1/facilities/${downtown}/rentalRecords/${scheduled.uuid}/auction/schedule`, {
        body: { scheduledOn: today },
      }),
    );
  }
  prepared.push(
    await api.call('POST', `${HOOKS}/subscriptions`, {
      body: { vendorName: 'walk-crm', targetUrl: HOOK_URL, eventTypes: ['moved-in', 'moved-out'], description: 'Authorization walk', portfolio: 'demo' },
    }),
  );
  expect(prepared.map((reply) => reply.status)).toEqual(prepared.map(() => 200));

  return [
    // Shopping, operations 1 to 5 and the extensions.
    call('POST', `${SHOP}/promotions/eligible-auto-applied-promotions-with-highest-discount`, { body: { facilityUuids: downtown }, write: false }),
    call('POST', `${SHOP}/facilities/tenant/validate-preexisting`, {
      body: { facilityUuid: downtown, email: 'ava.smith.0@example.com', code: '123456' },
      write: true,
    }),
    call('GET', `${SHOP}/facilities/tenant/{leadUuid}`, { params: { leadUuid: id('lead:4') }, write: false }),
    call('GET', `${SHOP}/coverages/{facilityUuid}`, { params: { facilityUuid: downtown }, write: false }),
    call('GET', `${SHOP}/lead-sources`, { write: false }),
    call('GET', `${SHOP}/facilities`, { write: false }),
    call('POST', `${SHOP}/leads`, { body: { facilityUuid: downtown, firstName: 'A', lastName: 'B', email: 'a@example.com' }, write: true }),
    call('POST', `${SHOP}/facilities/tenant/check-preexisting`, { body: { facilityUuid: downtown, email: 'ava.smith.0@example.com' }, write: true }),

    // Portfolio operations 6 to 14 and the notifications extension.
    call('GET', '/api/portfolios', { write: false, reach: 'key' }),
    call('POST', `${OPS}/facilities/{facilityUuid}/unitGroups/sizeAndType/get_by_uuids`, {
      params: { facilityUuid: downtown },
      body: { sizeAndTypeUnitGroupUuids: [id('size:downtown:5x5')] },
      write: false,
    }),
    call('POST', `${OPS}/facilities/{facilityUuid}/vehicles/get_by_uuids`, {
      params: { facilityUuid: downtown },
      body: { vehicleUuids: [id('vehicle:6')] },
      write: false,
    }),
    call('POST', `${OPS}/facilities/{facilityUuid}/coverageHistory/get_by_uuids`, {
      params: { facilityUuid: downtown },
      body: { coverageHistoryUuids: [id('enrollment:1:1')] },
      write: false,
    }),
    call('PATCH', `${OPS}/facilities/{facilityUuid}/unitGroups/{unitGroupUuid}/rate`, {
      params: { facilityUuid: downtown, unitGroupUuid: id('unit-group:downtown:5x5:1') },
      body: { baseWebRateInPennies: 1, baseStreetRateInPennies: 2 },
      write: true,
    }),
    call('PATCH', `${OPS}/tenants/person/{personUuid}`, { params: { personUuid: id('person:1') }, body: { email: 'changed@example.com' }, write: true }),
    call('POST', `${OPS}/notes/lead/{leadUuid}`, { params: { leadUuid: id('lead:1') }, body: { noteText: 'changed' }, write: true }),
    call('POST', `${OPS}/facilities/{facilityUuid}/leads/{leadUuid}/sendLease`, { params: { facilityUuid: downtown, leadUuid: id('lead:1') }, write: true }),
    call('GET', `${RENTAL}/gateAccessCode`, { params: rental(id('rental:0')), write: false }),
    call('GET', `${OPS}/facilities/{facilityUuid}/rentalRecords`, {
      params: { facilityUuid: downtown },
      query: { status: 'ACTIVE', limit: '10' },
      write: false,
    }),
    call('GET', `${RENTAL}/ledger`, { params: rental(id('rental:0')), query: { limit: '10' }, write: false }),
    call('GET', `${OPS}/notifications`, { query: { leadUuid: id('lead:1') }, write: false }),

    // Webhook subscriptions, operations 15 to 20 and webhooks listen: the portfolio is named in the query or the body.
    call('POST', `${HOOKS}/subscriptions`, {
      body: { vendorName: 'walk-new', targetUrl: 'https://93.184.216.35/hooks/walk', eventTypes: ['moved-in'], description: 'New endpoint', portfolio: 'demo' },
      write: true,
    }),
    call('GET', `${HOOKS}/subscriptions`, { query: { portfolio: 'demo' }, write: false }),
    call('PATCH', `${HOOKS}/subscriptions`, { query: { portfolio: 'demo', targetUrl: HOOK_URL }, body: { description: 'Changed' }, write: true }),
    call('DELETE', `${HOOKS}/subscriptions`, { body: { vendorName: 'walk-crm', portfolio: 'demo', eventTypes: ['moved-out'] }, write: true }),
    call('POST', `${HOOKS}/subscriptions/test`, { body: { eventType: 'moved-in', portfolio: 'demo' }, write: true }),
    call('GET', `${HOOKS}/dashboard-link`, { query: { portfolio: 'demo' }, write: true }),
    call('POST', `${HOOKS}/listen`, { body: { portfolio: 'demo', eventTypes: ['moved-in'] }, write: true }),

    // Rental lifecycle extensions.
    call('POST', `${RENTAL}/payments`, { params: rental(payment.uuid), body: { amountInPennies: 1000 }, write: true }),
    call('POST', `${RENTAL}/moveOut`, { params: rental(moveOut.uuid), write: true }),
    call('POST', `${RENTAL}/rentChange`, {
      params: rental(rentChange.uuid),
      body: { newRentInPennies: rentChange.rent + 100, effectiveDate: today },
      write: true,
    }),
    call('POST', `${RENTAL}/services`, { params: rental(addService.uuid), body: { itemTypeUuid: id('item-type:trash') }, write: true }),
    call('DELETE', `${RENTAL}/services/{itemTypeUuid}`, { params: { ...rental(lockRental), itemTypeUuid: id('item-type:lock') }, write: true }),
    call('POST', `${RENTAL}/transfer`, { params: rental(transfer.uuid), body: { newUnitUuid: vacantUnit }, write: true }),
    call('PUT', `${RENTAL}/autopay`, { params: rental(enableAutopay.uuid), body: { paymentMethod: 'pm_card_visa' }, write: true }),
    call('DELETE', `${RENTAL}/autopay`, { params: rental(disableAutopay.uuid), write: true }),

    // Delinquency and auction operator extensions.
    call('GET', `${OPS}/facilities/{facilityUuid}/delinquencySchedule`, { params: { facilityUuid: downtown }, write: false }),
    call('POST', `${RENTAL}/delinquency/pause`, { params: rental(pause.uuid), write: true }),
    call('POST', `${RENTAL}/delinquency/resume`, { params: rental(resume.uuid), write: true }),
    call('POST', `${RENTAL}/delinquency/writeOff`, { params: rental(writeOff.uuid), write: true }),
    call('POST', `${RENTAL}/auction/schedule`, { params: rental(schedule.uuid), body: { scheduledOn: today }, write: true }),
    call('PATCH', `${RENTAL}/auction`, { params: rental(update.uuid), body: { minimumBidInPennies: 5000 }, write: true }),
    call('POST', `${RENTAL}/auction/cancel`, { params: rental(cancel.uuid), write: true }),
    call('POST', `${RENTAL}/auction/complete`, { params: rental(complete.uuid), body: { winningBidInPennies: 20000 }, write: true }),

    // Onboarding: idempotent PUTs of new records (the demo's own left as they are), the portfolio with an admin key.
    call('PUT', '/api/v1/portfolios/{portfolioId}', { params: { portfolioId: 'walked' }, body: { name: 'Walked Co.' }, write: true, reach: 'admin' }),
    call('PUT', `${OPS}/unitTypes/{unitTypeUuid}`, { params: { unitTypeUuid: id('walk:unit-type') }, body: { description: 'Walk-in closet' }, write: true }),
    call('PUT', `${OPS}/amenities/{amenityUuid}`, { params: { amenityUuid: id('walk:amenity') }, body: { description: 'Shelving' }, write: true }),
    call('PUT', `${OPS}/ratePlans/{ratePlanUuid}`, {
      params: { ratePlanUuid: id('walk:rate-plan') },
      body: { name: 'Flat', occupancyBands: [{ minOccupancyPercent: 0, maxOccupancyPercent: 100, streetAdjustmentPercent: 0, webAdjustmentPercent: 0 }] },
      write: true,
    }),
    call('PUT', `${OPS}/itemTypes/{itemTypeUuid}`, {
      params: { itemTypeUuid: id('walk:item-type') },
      body: { name: 'Boxes', kind: 'SERVICE', priceInPennies: 300 },
      write: true,
    }),
    call('PUT', `${OPS}/leadSources/{leadSourceUuid}`, { params: { leadSourceUuid: id('walk:lead-source') }, body: { description: 'Radio' }, write: true }),
    call('PUT', `${OPS}/facilities/{facilityUuid}`, {
      params: { facilityUuid: id('walk:facility') },
      body: {
        name: 'Walk Storage',
        addressLine1: '1 Main St',
        city: 'Austin',
        state: 'TX',
        zip: '78701',
        phone: '512-555-0100',
        timeZone: 'America/Chicago',
        operatingHours: {},
      },
      write: true,
    }),
    call('PUT', `${OPS}/facilities/{facilityUuid}/sizeAndTypeGroups/{sizeAndTypeGroupUuid}`, {
      params: { facilityUuid: downtown, sizeAndTypeGroupUuid: id('walk:size') },
      body: { unitTypeUuid: id('unit-type:Standard Indoor'), width: 4, length: 6, height: 8 },
      write: true,
    }),
    call('PUT', `${OPS}/facilities/{facilityUuid}/unitGroups/{unitGroupUuid}`, {
      params: { facilityUuid: downtown, unitGroupUuid: id('walk:unit-group') },
      body: {
        sizeAndTypeGroupUuid: id('size:downtown:5x5'),
        description: '5x5 Walk',
        ratePlanUuid: id('rate-plan:occupancy'),
        baseStreetRateInPennies: 5000,
        baseWebRateInPennies: 4500,
        amenityUuids: [id('amenity:climate')],
      },
      write: true,
    }),
    call('PUT', `${OPS}/facilities/{facilityUuid}/units/{unitUuid}`, {
      params: { facilityUuid: downtown, unitUuid: id('walk:unit') },
      body: { unitGroupUuid: id('unit-group:downtown:5x5:1'), name: 'W101' },
      write: true,
    }),
    call('PUT', `${OPS}/facilities/{facilityUuid}/promotions/{promotionUuid}`, {
      params: { facilityUuid: downtown, promotionUuid: id('walk:promotion') },
      body: { name: 'Walk-in $1 off', discountType: 'AMOUNT_OFF', amountInPennies: 100, isAutoApplied: false },
      write: true,
    }),
    call('PUT', `${OPS}/facilities/{facilityUuid}/coverages/{coverageUuid}`, {
      params: { facilityUuid: downtown, coverageUuid: id('walk:coverage') },
      body: {
        itemTypeUuid: id('item-type:coverage:OTHER'),
        premiumInPennies: 700,
        coverageAmountInPennies: 100_000,
        description: '$1,000 of coverage',
        provider: 'OTHER',
      },
      write: true,
    }),
    call('PUT', `${OPS}/facilities/{facilityUuid}/delinquencySchedule`, {
      params: { facilityUuid: downtown },
      body: { graceDays: 5, overlockDay: 10, lienDay: 30, auctionDay: 60, lateFeeInPennies: 2000 },
      write: true,
    }),
  ];
}
