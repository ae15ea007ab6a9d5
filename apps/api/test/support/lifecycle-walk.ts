import { billingPeriodStarting, parseEnvelope, type EventEnvelope, type PublicEventType } from '@storage/domain';
import { launchBrowser } from '@storage/testing';
import { id } from './test-api';
import type { LifecycleApi } from './lifecycle-api';
import {
  byItemType,
  DEFAULT_COVERAGE_SERVICE,
  DOWNTOWN,
  facilityToday,
  leadWithLease,
  LOCK_SERVICE,
  promisedPromotions,
  rentalOf,
  rentalPath,
  vacantUnit,
} from './lifecycle-flow';
import { query, sql } from '@storage/persistence';

const FIRST_GROUP = id('unit-group:downtown:10x10:1');
const TRANSFER_GROUP = id('unit-group:downtown:10x15:1');
const PAYMENT = 5000;

interface ExpectedEvent {
  type: PublicEventType;
  key: string;
  filters: { facilityUuid: string; unitType: string; amenityUuids: string[] };
  /** The payload without eventId, which is checked against the envelope. */
  payload: Record<string, unknown>;
}

export interface Walk {
  rentals: string[];
  expected: ExpectedEvent[];
  payment: { paymentUuid: string; rentalRecordUuid: string; paidOn: string };
  /** What signing charged: the billing facts are its two charges, then the payment. */
  moveInInPennies: number;
}

/**
 * A lead from creation to move-out: operation 13, the lease page signed in headless Chromium, a payment,
 * a rent change, a service added and removed, a transfer, a move-out. Returns the events it must cause.
 */
export async function walkLifecycle(api: LifecycleApi): Promise<Walk> {
  const lead = await leadWithLease(api, FIRST_GROUP, { firstName: 'Rosa', lastName: 'Walker' });
  expect(lead.link.startsWith(`${api.baseUrl}/leases/sign/`)).toBe(true);
  const [lease] = await query(api.db, sql<{ rent: number }>('SELECT rent_in_pennies AS rent FROM leases WHERE lead_uuid = $1'), [lead.leadUuid]);
  const rent = lease.rent;
  // Every event of the rental, and of the rental the transfer opens, lists what the tenant signed for.
  const promotions = await promisedPromotions(api, FIRST_GROUP);
  expect(promotions.map((promotion) => promotion.promotionName)).toEqual(['$1 first month', '$2 off lock for 3 months']);

  // Signing charges the first period: the rent at the '$1 first month' rate and the $9.00 default coverage, by the
  // day when the first period is short (a start on the 29th to the 31st bills to the 28th).
  const period = billingPeriodStarting(await facilityToday(api.db), await facilityToday(api.db));
  const share = period.days / period.fullMonthDays;
  const moveIn = Math.round(rent * share) - Math.round((rent - 100) * share) + Math.round(900 * share);
  const dollars = (pennies: number): string => `$${(pennies / 100).toFixed(2)}`;
  const credit = PAYMENT - moveIn;

  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const terms = await page.goto(lead.link);
    expect(terms?.status()).toBe(200);
    const text = await page.locator('body').innerText();
    expect(text).toContain('Downtown Self Storage');
    expect(text).toContain(`$${(rent / 100).toFixed(2)}`);
    expect(text).toContain('10x10 Climate Controlled');
    expect(text).toContain('Coverage premium (SAFE_LEASE): $9.00 per month');
    for (const promotion of promotions) expect(text).toContain(`${promotion.promotionName}: $${(promotion.discountAmountInPennies / 100).toFixed(2)} off`);
    expect(text).toContain(`Due at signing\t${dollars(moveIn)}`);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Sign the lease' }).click();
    await page.getByText('Thank you, your lease is signed.').waitFor();
    const signed = await page.locator('body').innerText();
    expect(signed).toMatch(/Gate access code\s+\d{6}/);
    expect(signed).toContain(`Charged at move-in\t${dollars(moveIn)}`);
    expect(signed).toContain(`Balance\t${dollars(moveIn)}`);
    // Reloading the link shows the signed lease; nothing is signed twice.
    await page.goto(lead.link);
    await page.getByText('This lease is already signed; nothing was changed.').waitFor();
  } finally {
    await browser.close();
  }

  const rental = (await rentalOf(api.db, lead.leadUuid))!;
  const today = await facilityToday(api.db);
  const [moved] = await query(
    api.db,
    sql<{ unitUuid: string; billingDay: number; nextDueDate: string }>(
      `SELECT unit_uuid AS "unitUuid", billing_day_of_month AS "billingDay", next_due_date::text AS "nextDueDate" FROM rental_records WHERE uuid = $1`,
    ),
    [rental],
  );
  const converted = await api.call('GET', `/shopping/demo/v1/facilities/tenant/${lead.leadUuid}`);
  expect(converted.status).toBe(200);
  expect(converted.body).toMatchObject({
    facilityName: 'Downtown Self Storage',
    rentalStartDate: today,
    gateAccessNumber: expect.stringMatching(/^\d{6}$/),
    amountDueAtMoveInInPennies: moveIn,
  });
  // Posted with the rental, each charge a billing fact, due today; the next due date a period later.
  const charges = (
    await query(api.db, sql<{ envelope: unknown }>(`SELECT envelope FROM outbox WHERE key = $1 AND type = 'charge-posted' ORDER BY id`), [rental])
  ).map((row) => parseEnvelope(row.envelope) as EventEnvelope<'charge-posted'>);
  expect(charges.map((charge) => [charge.payload.dueDate, charge.payload.balanceAfterInPennies])).toEqual([
    [today, moveIn - Math.round(900 * share)],
    [today, moveIn],
  ]);
  expect(moved.nextDueDate).toBe(period.to);

  const firstFilters = { facilityUuid: DOWNTOWN, unitType: id('unit-type:Climate Controlled'), amenityUuids: [id('amenity:climate')] };
  const primaryContact = { firstName: 'Rosa', lastName: 'Walker', phone: '6465550123', isSMSEnrolled: false, email: 'rosa.walker@example.com' };
  const base = (over: { balance: number; rent: number; services: unknown[]; unitRental?: Record<string, unknown> }) => ({
    tenantUuid: lead.personUuid,
    unitRental: {
      rentalRecordUuid: rental,
      unitGroupUuid: FIRST_GROUP,
      unitUuid: moved.unitUuid,
      facilityUuid: DOWNTOWN,
      rentalBalance: over.balance,
      startRentDate: today,
      endRentDate: null,
      ...over.unitRental,
    },
    billingTemplate: {
      currentRentInPennies: over.rent,
      additionalServicesAndFees: byItemType(over.services as { itemTypeUuid: string }[]),
      promotions,
      billingDayOfMonth: moved.billingDay,
      nextDueDate: moved.nextDueDate,
    },
    tenantBalanceInPennies: over.balance,
    primaryContact,
  });
  const expected: ExpectedEvent[] = [
    {
      type: 'moved-in',
      key: rental,
      filters: firstFilters,
      payload: { event: 'moved-in', ...base({ balance: moveIn, rent, services: [DEFAULT_COVERAGE_SERVICE] }) },
    },
  ];

  const paid = await api.call('POST', `${rentalPath(rental)}/payments`, { amountInPennies: PAYMENT });
  expect(paid.status).toBe(200);
  expect(paid.body).toEqual({ paymentUuid: expect.any(String), rentalRecordUuid: rental, amountInPennies: PAYMENT, balanceInPennies: -credit, paidOn: today });

  const newRent = rent + 1000;
  const changed = await api.call('POST', `${rentalPath(rental)}/rentChange`, { newRentInPennies: newRent, effectiveDate: moved.nextDueDate });
  expect(changed.status).toBe(200);
  expect(changed.body).toMatchObject({ rentalRecordUuid: rental, rentInPennies: newRent, balanceInPennies: -credit, status: 'ACTIVE' });
  expected.push({
    type: 'rent-change',
    key: rental,
    filters: firstFilters,
    payload: {
      event: 'rent-change',
      ...base({ balance: -credit, rent: newRent, services: [DEFAULT_COVERAGE_SERVICE] }),
      rentChange: { previousRentInPennies: rent, currentRentInPennies: newRent, rentChangeDate: today, rentChangeEffectiveDate: moved.nextDueDate },
    },
  });

  const added = await api.call('POST', `${rentalPath(rental)}/services`, { itemTypeUuid: LOCK_SERVICE.itemTypeUuid });
  expect(added.status).toBe(200);
  expect(byItemType(added.body.services)).toEqual(byItemType([DEFAULT_COVERAGE_SERVICE, LOCK_SERVICE]));
  const withLock = [DEFAULT_COVERAGE_SERVICE, LOCK_SERVICE];
  const serviceChange = (previous: unknown[], current: unknown[]) => ({
    previousAdditionalServicesFees: byItemType(previous as { itemTypeUuid: string }[]),
    currentAdditionalServicesFees: byItemType(current as { itemTypeUuid: string }[]),
    serviceChangeDate: today,
    serviceChangeEffectiveDate: today,
  });
  expected.push({
    type: 'recurring-service-change',
    key: rental,
    filters: firstFilters,
    payload: {
      event: 'recurring-service-change',
      ...base({ balance: -credit, rent: newRent, services: withLock }),
      recurringServiceChange: serviceChange([DEFAULT_COVERAGE_SERVICE], withLock),
    },
  });

  const removed = await api.call('DELETE', `${rentalPath(rental)}/services/${LOCK_SERVICE.itemTypeUuid}`);
  expect(removed.status).toBe(200);
  expect(removed.body.services).toEqual([DEFAULT_COVERAGE_SERVICE]);
  expected.push({
    type: 'recurring-service-change',
    key: rental,
    filters: firstFilters,
    payload: {
      event: 'recurring-service-change',
      ...base({ balance: -credit, rent: newRent, services: [DEFAULT_COVERAGE_SERVICE] }),
      recurringServiceChange: serviceChange(withLock, [DEFAULT_COVERAGE_SERVICE]),
    },
  });

  const targetUnit = await vacantUnit(api.db, TRANSFER_GROUP);
  const [target] = await query(api.db, sql<{ webRate: number }>('SELECT current_web_rate_in_pennies AS "webRate" FROM unit_groups WHERE uuid = $1'), [
    TRANSFER_GROUP,
  ]);
  const transferred = await api.call('POST', `${rentalPath(rental)}/transfer`, { newUnitUuid: targetUnit });
  expect(transferred.status).toBe(200);
  const newRental: string = transferred.body.rentalRecordUuid;
  expect(transferred.body).toMatchObject({
    oldRentalRecordUuid: rental,
    unitUuid: targetUnit,
    rentInPennies: target.webRate,
    balanceInPennies: -credit,
    transferCreditAmountInPennies: credit,
  });
  const transferFilters = { facilityUuid: DOWNTOWN, unitType: id('unit-type:Drive-Up'), amenityUuids: [id('amenity:drive-up')] };
  const newUnitRental = { rentalRecordUuid: newRental, unitGroupUuid: TRANSFER_GROUP, unitUuid: targetUnit };
  expected.push({
    type: 'transfer',
    key: newRental,
    filters: transferFilters,
    payload: {
      event: 'transfer',
      ...base({ balance: -credit, rent: target.webRate, services: [DEFAULT_COVERAGE_SERVICE], unitRental: newUnitRental }),
      transfer: {
        transferDate: today,
        oldUnitRentalRecordUuid: rental,
        oldUnitUuid: moved.unitUuid,
        oldUnitRentAmountInPennies: newRent,
        newUnitRentAmountInPennies: target.webRate,
        transferCreditAmountInPennies: credit,
      },
    },
  });

  const out = await api.call('POST', `${rentalPath(newRental)}/moveOut`);
  expect(out.status).toBe(200);
  expect(out.body).toMatchObject({ rentalRecordUuid: newRental, status: 'MOVED_OUT', endDate: today, services: [] });
  expected.push({
    type: 'moved-out',
    key: newRental,
    filters: transferFilters,
    payload: {
      event: 'moved-out',
      ...base({ balance: -credit, rent: target.webRate, services: [], unitRental: { ...newUnitRental, endRentDate: today } }),
    },
  });

  return {
    rentals: [rental, newRental],
    expected,
    payment: { paymentUuid: paid.body.paymentUuid, rentalRecordUuid: rental, paidOn: today },
    moveInInPennies: moveIn,
  };
}

/**
 * The events match the walk's, in order, once each, field by field (spec 6.2 and 6.3, ARCHITECTURE eventId).
 * `per-rental` checks the order Kafka promises, within each key: the walk's rentals follow one another, so the
 * events are grouped by rental (stably, in the walk's order of rentals) before they are compared.
 */
export function expectWalkEvents(events: EventEnvelope[], walk: Walk, order: 'total' | 'per-rental' = 'total'): void {
  if (order === 'per-rental') {
    const rank = (event: EventEnvelope) => walk.rentals.indexOf(event.key ?? '');
    events = [...events].sort((a, b) => rank(a) - rank(b));
  }
  expect(events.map((event) => event.type)).toEqual(walk.expected.map((event) => event.type));
  expect(new Set(events.map((event) => event.eventId)).size).toBe(events.length);
  let previousTime = 0;
  events.forEach((raw, index) => {
    const event = parseEnvelope(raw);
    const expected = walk.expected[index];
    const { eventId, ...payload } = event.payload as unknown as Record<string, unknown> & { eventId: string };
    const match = /^([0-9a-f-]{36})-(\d+)-([a-z-]+)$/.exec(eventId);
    expect(match?.[1]).toBe(expected.key);
    expect(match?.[3]).toBe(expected.type);
    expect(Number(match?.[2])).toBe(Date.parse(event.occurredAt));
    expect(Date.parse(event.occurredAt)).toBeGreaterThan(previousTime);
    previousTime = Date.parse(event.occurredAt);
    expect({ eventId: event.eventId, key: event.key, portfolio: event.portfolio, filters: event.filters }).toEqual({
      eventId,
      key: expected.key,
      portfolio: 'demo',
      filters: expected.filters,
    });
    expect(normalizeServices(payload)).toEqual(expected.payload);
  });
}

/** Service arrays sorted by item type (their order within one start day is arbitrary). */
function normalizeServices(payload: Record<string, unknown>): Record<string, unknown> {
  const template = payload.billingTemplate as { additionalServicesAndFees: { itemTypeUuid: string }[] };
  const change = payload.recurringServiceChange as
    { previousAdditionalServicesFees: { itemTypeUuid: string }[]; currentAdditionalServicesFees: { itemTypeUuid: string }[] } | undefined;
  return {
    ...payload,
    billingTemplate: { ...template, additionalServicesAndFees: byItemType(template.additionalServicesAndFees) },
    ...(change
      ? {
          recurringServiceChange: {
            ...change,
            previousAdditionalServicesFees: byItemType(change.previousAdditionalServicesFees),
            currentAdditionalServicesFees: byItemType(change.currentAdditionalServicesFees),
          },
        }
      : {}),
  };
}
