import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import {
  calendarDateSchema,
  EVENT_PAYLOAD_SCHEMAS,
  eventJsonSchema,
  normalizePhone,
  PUBLIC_EVENT_TYPES,
  webhookDeliveryBody,
  webhookDeliveryBodySchema,
  webhookTestPayload,
} from '../../src';
import { fixtures } from './fixtures';

const AT = new Date('2025-04-02T23:59:59.999Z');
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));

describe('webhookDeliveryBody', () => {
  it('writes {"data":[payload],"test":…}: false for a real event, true for operation 19', () => {
    expect(webhookDeliveryBody(fixtures['moved-in'], { test: false })).toBe(JSON.stringify({ data: [fixtures['moved-in']], test: false }));
    expect(JSON.parse(webhookDeliveryBody(webhookTestPayload('auction', AT), { test: true }))).toEqual({
      data: [webhookTestPayload('auction', AT)],
      test: true,
    });
  });

  it.each(PUBLIC_EVENT_TYPES)('%s: its schema requires the boolean test beside data', (type) => {
    const validate = ajv.compile(webhookDeliveryBodySchema(eventJsonSchema(EVENT_PAYLOAD_SCHEMAS[type], 'draft-7')));
    const payload = webhookTestPayload(type, AT);
    expect(validate(JSON.parse(webhookDeliveryBody(payload, { test: true })))).toBe(true);
    expect(validate(JSON.parse(webhookDeliveryBody(payload, { test: false })))).toBe(true);
    expect(validate({ data: [payload] })).toBe(false);
    expect(validate({ data: [payload], test: 'true' })).toBe(false);
  });
});

describe("operation 19's payload uses the formats of real events", () => {
  it.each(PUBLIC_EVENT_TYPES)('%s: the phone as the records store it (ten digits), dates as calendar dates of the day', (type) => {
    const payload = webhookTestPayload(type, AT);
    const { phone } = payload.primaryContact;
    expect(normalizePhone(phone)).toBe(phone);
    expect(payload.primaryContact.email).toBe(payload.primaryContact.email.toLowerCase());
    expect(calendarDateSchema.safeParse(payload.unitRental.startRentDate).success).toBe(true);
    expect(payload.unitRental.startRentDate).toBe('2025-04-02');
    expect(payload.billingTemplate.nextDueDate).toBe('2025-04-02');
  });
});
