import {
  basePayloadSchema,
  EVENT_PAYLOAD_SCHEMAS,
  EVENT_TOPIC,
  EVENT_TYPES,
  parseEventPayload,
  PUBLIC_EVENT_TYPES,
  topicFor,
  TOPICS,
  type EventPayloads,
  type EventType,
} from '../../src';
import { fixtures, RENTAL } from './fixtures';

type Json = Record<string, unknown>;
const clone = (value: unknown): Json => JSON.parse(JSON.stringify(value)) as Json;
const accepts = (type: EventType, value: unknown) => EVENT_PAYLOAD_SCHEMAS[type].safeParse(value).success;

function without(value: Json, path: string[]): Json {
  const copy = clone(value);
  const parent = path.slice(0, -1).reduce<Json>((obj, key) => obj[key] as Json, copy);
  delete parent[path.at(-1)!];
  return copy;
}

function withValue(value: Json, path: string[], replacement: unknown): Json {
  const copy = clone(value);
  const parent = path.slice(0, -1).reduce<Json>((obj, key) => obj[key] as Json, copy);
  parent[path.at(-1)!] = replacement;
  return copy;
}

/** Every field path of a payload (objects only, not inside arrays). */
function fieldPaths(value: Json, prefix: string[] = []): string[][] {
  return Object.entries(value).flatMap(([key, child]) => {
    const path = [...prefix, key];
    return child !== null && typeof child === 'object' && !Array.isArray(child) ? [path, ...fieldPaths(child as Json, path)] : [path];
  });
}

describe('event payload schemas', () => {
  it.each(EVENT_TYPES)('accept a full %s example, through JSON', (type) => {
    expect(parseEventPayload(type, clone(fixtures[type]))).toEqual(fixtures[type]);
  });

  it.each(EVENT_TYPES.flatMap((type) => fieldPaths(clone(fixtures[type])).map((path) => [type, path.join('.'), path] as const)))(
    '%s refuses a payload missing %s',
    (type, _name, path) => {
      expect(accepts(type, without(clone(fixtures[type]), path))).toBe(false);
    },
  );

  it.each([
    ['moved-in', ['unitRental', 'rentalBalance'], '129.00'],
    ['moved-in', ['unitRental', 'rentalBalance'], 129.5],
    ['moved-in', ['unitRental', 'unitUuid'], 'unit-42'],
    ['moved-in', ['unitRental', 'startRentDate'], '11/15/2024'],
    ['moved-in', ['billingTemplate', 'currentRentInPennies'], -1],
    ['moved-in', ['billingTemplate', 'billingDayOfMonth'], 32],
    ['moved-in', ['billingTemplate', 'additionalServicesAndFees'], [{ description: 'Lock', amount: 1, feeType: 'BOGUS', itemTypeUuid: RENTAL }]],
    ['moved-in', ['primaryContact', 'isSMSEnrolled'], 'yes'],
    ['moved-in', ['tenantBalanceInPennies'], null],
    ['moved-in', ['event'], 'move_in'],
    ['moved-in', ['event'], 'moved-out'],
    ['rent-change', ['rentChange', 'currentRentInPennies'], '12200'],
    ['delinquency-status-change', ['delinquencyStatusChange', 'delinquencyNewStatus'], 'CURRENT'],
    ['delinquency-status-change', ['delinquencyStatusChange', 'delinquencyPreviousStatus'], 'GRACE'],
    ['delinquency-status-change', ['delinquencyStatusChange', 'paymentDate'], '2025-04-02T10:00:00Z'],
    ['auction', ['auction', 'auctionStage'], 'SOLD'],
    ['auction', ['auction', 'minimumBidAmount'], [250]],
    ['transfer', ['transfer', 'transferDate'], '2025-04-02T00:00:00Z'],
    ['payment-recorded', ['amountInPennies'], 0],
    ['payment-declined', ['amountInPennies'], 0],
    ['payment-declined', ['reason'], ''],
    ['webhook-test-event', ['eventType'], 'move_out'],
    ['webhook-recover', ['since'], 'yesterday'],
  ] as const)('%s refuses %s = %p', (type, path, value) => {
    expect(accepts(type, withValue(clone(fixtures[type]), [...path], value))).toBe(false);
  });

  it('accept a first delinquency step with no previous status and a payment date', () => {
    const payload = withValue(clone(fixtures['delinquency-status-change']), ['delinquencyStatusChange'], {
      delinquencyUuid: '5162738a-9eaf-4b01-82d3-e4f506172839',
      delinquencyPreviousStatus: null,
      delinquencyNewStatus: 'OVERDUE',
      delinquencyStatusChangeDate: '2025-03-21',
      paymentDate: null,
    });
    expect(accepts('delinquency-status-change', payload)).toBe(true);
  });

  it('refuse an eventId of another rental or another event', () => {
    const other = fixtures['moved-in'].eventId.replace(RENTAL, '00000000-0000-4000-8000-000000000000');
    expect(accepts('moved-in', withValue(clone(fixtures['moved-in']), ['eventId'], other))).toBe(false);
    expect(accepts('moved-in', withValue(clone(fixtures['moved-in']), ['eventId'], fixtures['moved-out'].eventId))).toBe(false);
    expect(accepts('moved-in', withValue(clone(fixtures['moved-in']), ['eventId'], 'not-an-id'))).toBe(false);
  });

  it('the base payload schema takes any public event as its base', () => {
    for (const type of PUBLIC_EVENT_TYPES) expect(basePayloadSchema.safeParse(fixtures[type]).success).toBe(true);
  });

  it('parseEventPayload reports issues under payload', () => {
    expect(() => parseEventPayload('rent-change', fixtures['moved-in'])).toThrow(/payload\.(event|rentChange)/);
  });

  it('give a handler the payload type of its event', () => {
    const handle = (payload: EventPayloads['rent-change']): number => payload.rentChange.currentRentInPennies;
    expect(handle(fixtures['rent-change'])).toBe(12_200);
  });
});

describe('topics', () => {
  it('are versioned', () => {
    expect(TOPICS).toEqual(['storage.tenant-lifecycle.v1', 'storage.billing.v1', 'storage.webhook-commands.v1']);
  });

  it('put public events on tenant-lifecycle, billing facts on billing, commands on webhook-commands', () => {
    for (const type of PUBLIC_EVENT_TYPES) expect(topicFor(type)).toBe('storage.tenant-lifecycle.v1');
    expect(EVENT_TOPIC['payment-recorded']).toBe('storage.billing.v1');
    expect(EVENT_TOPIC['charge-posted']).toBe('storage.billing.v1');
    expect(EVENT_TOPIC['payment-declined']).toBe('storage.billing.v1');
    expect(EVENT_TOPIC['webhook-test-event']).toBe('storage.webhook-commands.v1');
    expect(EVENT_TOPIC['webhook-resend']).toBe('storage.webhook-commands.v1');
    expect(EVENT_TOPIC['webhook-recover']).toBe('storage.webhook-commands.v1');
  });

  it('has the seven public event types of the spec', () => {
    expect(PUBLIC_EVENT_TYPES).toEqual([
      'moved-in',
      'moved-out',
      'rent-change',
      'delinquency-status-change',
      'recurring-service-change',
      'auction',
      'transfer',
    ]);
  });
});
