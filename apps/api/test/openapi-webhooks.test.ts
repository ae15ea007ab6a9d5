import { readFileSync } from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { basePayloadSchema, PUBLIC_EVENT_TYPES, webhookDeliveryBody, webhookTestPayload, type PublicEventType } from '@storage/domain';
import { rentalEnvelope, rentalEventContextOf, type AddedObject } from '@storage/rental-events';
import { OPENAPI_FILE } from '../src/openapi/generate';
import { TEST_WEBHOOK } from '../src/openapi/webhooks';

type Webhook = {
  post: {
    summary?: string;
    description?: string;
    security?: unknown[];
    parameters: { name: string; in: string; required?: boolean; description?: string }[];
    requestBody: { content: Record<string, { schema: { $ref?: string }; examples: Record<string, { value: unknown }> }> };
    responses: Record<string, unknown>;
  };
};

// The committed file, as integrators get it; openapi.test checks it is what the code generates.
const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as { webhooks: Record<string, Webhook> };
// OpenAPI 3.1 schemas are JSON Schema 2020-12; `$ref`s resolve inside the document.
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
ajv.addSchema(document, 'openapi');

const body = (type: string) => document.webhooks[type].post.requestBody.content['application/json'];

function validatorOf(type: string): ValidateFunction {
  const { $ref } = body(type).schema;
  // The test event's schema is inline (a oneOf of the others'): compiled where its references resolve.
  const validate = $ref
    ? ajv.getSchema(`openapi${$ref}`)
    : ajv.getSchema(`openapi#/webhooks/${TEST_WEBHOOK}/post/requestBody/content/application~1json/schema`);
  if (validate === undefined) throw new Error(`no schema for ${type}`);
  return validate;
}

const errorsOf = (validate: ValidateFunction, value: unknown) => (validate(value) ? [] : validate.errors);

/** A rental as the producers read it (`loadRentalEventContext`'s row), with services, a promotion and a contact without phone. */
const CONTEXT = rentalEventContextOf({
  rental_record_uuid: 'c2a7e0b4-5d1f-4e3a-9b6c-7d8e9f0a1b2c',
  person_uuid: '1d2e3f40-5a6b-4c7d-8e9f-a0b1c2d3e4f5',
  unit_group_uuid: '2e3f4051-6b7c-4d8e-9fa0-b1c2d3e4f506',
  unit_uuid: '3f405162-7c8d-4e9f-a0b1-c2d3e4f50617',
  facility_uuid: 'f3b8f1c5-6e20-4f4b-8c7d-8e9f0a1b2c3d',
  balance_in_pennies: 12_900,
  start_date: '2024-11-15',
  end_date: null,
  rent_in_pennies: 11_400,
  billing_day_of_month: 15,
  next_due_date: '2025-04-15',
  tenant_balance_in_pennies: '12900',
  first_name: 'Maria',
  last_name: 'Okafor',
  phone: null,
  is_sms_enrolled: false,
  email: 'maria.okafor@example.com',
  portfolio_id: 'demo',
  unit_type_uuid: 'a4c9a2d6-7f31-4a5c-9d8e-9f0a1b2c3d4e',
  amenity_uuids: ['b5dab3e7-8a42-4b6d-8e9f-0a1b2c3d4e5f'],
  services: [{ description: 'Disc lock', amount: 1500, feeType: 'FIXED_AMOUNT', itemTypeUuid: 'd6ebc4f8-9b53-4c7e-9f0a-1b2c3d4e5f60' }],
  promotions: [
    {
      promotionUuid: '40516273-8d9e-4fa0-b1c2-d3e4f5061728',
      promotionName: 'First month $1',
      discountType: 'FIXED_RATE',
      monthStarts: 1,
      durationInMonths: 1,
      discountAmountInPennies: 11_300,
      itemTypeUuid: null,
    },
  ],
});

const BASE_FIELDS = new Set(Object.keys(basePayloadSchema.shape));

/** The event's added object (spec 6.3), taken from operation 19's sample: its fields beyond the base payload. */
const addedObject = <T extends PublicEventType>(type: T, at: Date): AddedObject<T> =>
  Object.fromEntries(Object.entries(webhookTestPayload(type, at)).filter(([key]) => !BASE_FIELDS.has(key))) as AddedObject<T>;

/** A delivery body as the dispatcher writes it: `webhookDeliveryBody` of the envelope's payload, as the receiver parses it. */
const delivered = (payload: unknown, test: boolean): unknown => JSON.parse(webhookDeliveryBody(payload, { test }));

describe('the webhooks of the OpenAPI document', () => {
  it('has one webhook per public event type, and operation 19’s test event, and no other', () => {
    expect(Object.keys(document.webhooks).sort()).toEqual([...PUBLIC_EVENT_TYPES, TEST_WEBHOOK].sort());
  });

  it.each([...PUBLIC_EVENT_TYPES, TEST_WEBHOOK])(
    '%s: a signed POST with the Standard Webhooks headers, the answers the dispatcher acts on, and no API key',
    (type) => {
      const { post } = document.webhooks[type];
      expect(post.summary).toMatch(/\S/);
      expect(post.description).toMatch(/\S/);
      expect(post.security).toEqual([]);
      expect(post.parameters.map(({ name, in: where, required }) => ({ name, in: where, required }))).toEqual(
        ['hook-id', 'hook-timestamp', 'hook-signature'].map((name) => ({ name, in: 'header', required: true })),
      );
      const signature = post.parameters.find(({ name }) => name === 'hook-signature')!.description;
      expect(signature).toContain('`<hook-id>.<hook-timestamp>.<raw body>`');
      expect(signature).toContain('whsec_');
      expect(Object.keys(post.responses).sort()).toEqual(['2XX', '410', 'default']);
    },
  );

  it.each([...PUBLIC_EVENT_TYPES, TEST_WEBHOOK])('%s: every example is valid for its schema', (type) => {
    const validate = validatorOf(type);
    const examples = Object.entries(body(type).examples);
    expect(examples.length).toBeGreaterThan(0);
    for (const [name, { value }] of examples) expect({ name, errors: errorsOf(validate, value) }).toEqual({ name, errors: [] });
  });

  it.each(PUBLIC_EVENT_TYPES)('%s: the body of a real event and of operation 19, as the dispatcher sends them, are valid; the bare payload is not', (type) => {
    const validate = validatorOf(type);
    const at = new Date();
    const envelope = rentalEnvelope(type, CONTEXT, addedObject(type, at), at);
    expect(errorsOf(validate, delivered(envelope.payload, false))).toEqual([]);
    expect(errorsOf(validate, delivered(webhookTestPayload(type, at), true))).toEqual([]);
    expect(validate(JSON.parse(JSON.stringify(envelope.payload)))).toBe(false);
    expect(validate({ data: [JSON.parse(JSON.stringify(envelope.payload))] })).toBe(false);
    const other = PUBLIC_EVENT_TYPES.find((candidate) => candidate !== type)!;
    expect(validate(delivered(webhookTestPayload(other, at), true))).toBe(false);
  });

  it.each(PUBLIC_EVENT_TYPES)('%s: documents the top-level test flag, and the example of operation 19 has test: true', (type) => {
    expect(document.webhooks[type].post.description).toContain('`test`');
    expect(body(type).examples.operation19.value).toMatchObject({ test: true });
  });

  it.each(PUBLIC_EVENT_TYPES)('test-event: operation 19’s message of %s is valid for it, the real event’s body and a bare payload are not', (type) => {
    const validate = validatorOf(TEST_WEBHOOK);
    const at = new Date();
    expect(errorsOf(validate, delivered(webhookTestPayload(type, at), true))).toEqual([]);
    expect(validate(delivered(rentalEnvelope(type, CONTEXT, addedObject(type, at), at).payload, false))).toBe(false);
    expect(validate(JSON.parse(JSON.stringify(webhookTestPayload(type, at))))).toBe(false);
    expect(Object.keys(body(TEST_WEBHOOK).examples).sort()).toEqual([...PUBLIC_EVENT_TYPES].sort());
  });
});
