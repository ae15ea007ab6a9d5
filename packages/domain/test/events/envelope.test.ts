import fc from 'fast-check';
import {
  createEnvelope,
  EVENT_TYPES,
  InvalidEvent,
  isUuid,
  lifecycleEventId,
  parseEnvelope,
  parseLifecycleEventId,
  PUBLIC_EVENT_TYPES,
  type EventEnvelope,
} from '../../src';
import { AMENITY, FACILITY, fixtures, OCCURRED_AT, RENTAL, UNIT_TYPE } from './fixtures';

const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

function envelopeOf<T extends (typeof EVENT_TYPES)[number]>(type: T): EventEnvelope<T> {
  return createEnvelope({ type, payload: fixtures[type], occurredAt: OCCURRED_AT, portfolio: 'acme-storage', unitType: UNIT_TYPE, amenityUuids: [AMENITY] });
}

function issuesOf(raw: unknown): string[] {
  try {
    parseEnvelope(raw);
  } catch (error) {
    if (error instanceof InvalidEvent) return error.issues.map((issue) => issue.path.join('.'));
    throw error;
  }
  return [];
}

describe('lifecycleEventId', () => {
  it('is {rentalRecordUuid}-{epoch ms}-{event}', () => {
    expect(lifecycleEventId(RENTAL, OCCURRED_AT, 'rent-change')).toBe(`${RENTAL}-1743602607512-rent-change`);
  });

  it('parses back into its parts', () => {
    fc.assert(
      fc.property(
        fc.uuid(),
        fc.date({ min: new Date(0), max: new Date('2200-01-01'), noInvalidDate: true }),
        fc.constantFrom(...PUBLIC_EVENT_TYPES),
        (uuid, at, event) => {
          expect(parseLifecycleEventId(lifecycleEventId(uuid, at, event))).toEqual({ rentalRecordUuid: uuid, epochMs: at.getTime(), event });
        },
      ),
    );
  });

  it('refuses a rental that is not a uuid and a time before 1970', () => {
    expect(() => lifecycleEventId('rental-1', OCCURRED_AT, 'moved-in')).toThrow(RangeError);
    expect(() => lifecycleEventId(RENTAL, new Date(-1), 'moved-in')).toThrow(RangeError);
    expect(parseLifecycleEventId(`${RENTAL}-1743602607512-move_in`)).toBeNull();
  });
});

describe('envelope', () => {
  it.each(EVENT_TYPES)('a %s envelope survives JSON and parses to the same value', (type) => {
    const envelope = envelopeOf(type);
    expect(parseEnvelope(roundTrip(envelope))).toEqual(envelope);
  });

  it('derives key, event id and filters of a public event from its payload', () => {
    expect(envelopeOf('rent-change')).toEqual({
      eventId: fixtures['rent-change'].eventId,
      type: 'rent-change',
      occurredAt: '2025-04-02T14:03:27.512Z',
      portfolio: 'acme-storage',
      key: RENTAL,
      filters: { facilityUuid: FACILITY, unitType: UNIT_TYPE, amenityUuids: [AMENITY] },
      payload: fixtures['rent-change'],
    });
  });

  it('keys billing facts by rental and commands by nothing, with a fresh event id', () => {
    const payment = createEnvelope({ type: 'payment-recorded', payload: fixtures['payment-recorded'], occurredAt: OCCURRED_AT, portfolio: 'acme-storage' });
    expect(payment.key).toBe(RENTAL);
    expect(isUuid(payment.eventId)).toBe(true);
    expect(payment.filters).toEqual({ facilityUuid: null, unitType: null, amenityUuids: [] });
    const resend = createEnvelope({ type: 'webhook-resend', payload: fixtures['webhook-resend'], occurredAt: OCCURRED_AT, portfolio: 'acme-storage' });
    expect(resend.key).toBeNull();
  });

  it('narrows the payload by type', () => {
    const envelope = parseEnvelope(roundTrip(envelopeOf('transfer')));
    switch (envelope.type) {
      case 'transfer':
        expect(envelope.payload.transfer.newUnitRentAmountInPennies).toBe(15_900);
        break;
      default:
        throw new Error(`unexpected ${envelope.type}`);
    }
  });

  it('refuses what is not an envelope', () => {
    expect(() => parseEnvelope(null)).toThrow(InvalidEvent);
    expect(issuesOf({})).toEqual(expect.arrayContaining(['eventId', 'type', 'occurredAt', 'portfolio', 'key', 'filters']));
  });

  it.each([
    ['an unknown type', { type: 'moved_in' }, 'type'],
    ['an occurredAt that is not ISO UTC', { occurredAt: '2025-04-02 14:03' }, 'occurredAt'],
    ['an empty portfolio', { portfolio: '' }, 'portfolio'],
    ['a payload of another type', { type: 'moved-out' }, 'payload.event'],
    ['a key of another rental', { key: '00000000-0000-4000-8000-000000000000' }, 'key'],
    ['an eventId other than the payload one', { eventId: 'evt-1' }, 'eventId'],
    ['an occurredAt other than the eventId time', { occurredAt: '2025-04-02T14:03:28.000Z' }, 'occurredAt'],
    ['a facility filter other than the rental facility', { filters: { facilityUuid: null, unitType: null, amenityUuids: [] } }, 'filters.facilityUuid'],
    ['amenities that are not uuids', { filters: { facilityUuid: FACILITY, unitType: null, amenityUuids: ['wifi'] } }, 'filters.amenityUuids.0'],
  ])('refuses %s', (_case, change, path) => {
    const raw = { ...(roundTrip(envelopeOf('moved-in')) as object), ...change };
    expect(issuesOf(raw)).toContain(path);
  });

  it('refuses a payload with a wrongly typed field and says where', () => {
    const raw = roundTrip(envelopeOf('rent-change')) as { payload: { rentChange: { previousRentInPennies: unknown } } };
    raw.payload.rentChange.previousRentInPennies = '11400';
    expect(issuesOf(raw)).toEqual(['payload.rentChange.previousRentInPennies']);
  });

  it('createEnvelope refuses to build an invalid message', () => {
    const payload = { ...fixtures['charge-posted'], amountInPennies: -5 };
    expect(() => createEnvelope({ type: 'charge-posted', payload, occurredAt: OCCURRED_AT, portfolio: 'acme-storage' })).toThrow(InvalidEvent);
    expect(() =>
      createEnvelope({ type: 'moved-in', payload: fixtures['moved-in'], occurredAt: new Date(OCCURRED_AT.getTime() + 1), portfolio: 'acme-storage' }),
    ).toThrow(/occurredAt/);
  });
});
