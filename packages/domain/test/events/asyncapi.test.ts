import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Parser, type AsyncAPIDocumentInterface } from '@asyncapi/parser';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { asyncApiDocument, createEnvelope, EVENT_TYPES, PUBLIC_EVENT_TYPES, serializeAsyncApi, topicFor, webhookDeliveryBody, type EventType } from '../../src';
import { AMENITY, fixtures, OCCURRED_AT, UNIT_TYPE } from './fixtures';

const COMMITTED = join(__dirname, '../../../../docs/asyncapi.json');

let parsed: AsyncAPIDocumentInterface;
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));

beforeAll(async () => {
  // The official AsyncAPI parser, as integrators' tools (code generators, AsyncAPI Studio) read the document.
  const { document, diagnostics } = await new Parser().parse(readFileSync(COMMITTED, 'utf8'));
  expect(diagnostics.map((d) => `${d.code}: ${d.message} at ${d.path.join('.')}`)).toEqual([]);
  parsed = document!;
});

/** The message's payload schema as the parser resolved it, compiled. */
function validatorOf(channel: string, message: string): ValidateFunction {
  const found = parsed.channels().get(channel)?.messages().get(message);
  if (found === undefined) throw new Error(`no message ${message} on channel ${channel}`);
  return ajv.compile(found.payload()!.json());
}

const envelopeOf = (type: EventType) =>
  JSON.parse(
    JSON.stringify(
      createEnvelope({ type, payload: fixtures[type], occurredAt: OCCURRED_AT, portfolio: 'acme-storage', unitType: UNIT_TYPE, amenityUuids: [AMENITY] }),
    ),
  ) as Record<string, unknown>;

const CHANNEL_OF_TOPIC: Record<string, string> = {
  'storage.tenant-lifecycle.v1': 'tenantLifecycle',
  'storage.billing.v1': 'billing',
  'storage.webhook-commands.v1': 'webhookCommands',
};
const camel = (name: string): string => name.replace(/-(.)/g, (_, letter: string) => letter.toUpperCase());

describe('the AsyncAPI document (docs/asyncapi.json)', () => {
  it('is the one the event schemas generate (run `npm run build && npm run asyncapi -w @storage/domain` after changing them)', () => {
    expect(readFileSync(COMMITTED, 'utf8')).toBe(serializeAsyncApi(asyncApiDocument()));
  });

  it('names every topic, every event type on its topic, and a webhook delivery for each public event only', () => {
    for (const type of EVENT_TYPES) {
      expect(parsed.channels().get(CHANNEL_OF_TOPIC[topicFor(type)])?.messages().get(camel(type))?.name()).toBe(type);
    }
    const deliveries = parsed.channels().get('webhookDeliveries')!.messages().all();
    expect(deliveries.map((message) => message.name()).sort()).toEqual([...PUBLIC_EVENT_TYPES].sort());
  });

  it.each(EVENT_TYPES)('describes the %s envelope producers write: a real one is valid, a broken one is not', (type) => {
    const validate = validatorOf(CHANNEL_OF_TOPIC[topicFor(type)], camel(type));
    const envelope = envelopeOf(type);
    expect(validate(envelope) ? [] : validate.errors).toEqual([]);
    expect(validate({ ...envelope, type: type === 'moved-in' ? 'moved-out' : 'moved-in' })).toBe(false);
    expect(validate({ ...envelope, payload: { ...(envelope.payload as object), unexpected: true } })).toBe(false);
  });

  it.each(PUBLIC_EVENT_TYPES)('describes the %s webhook delivery body receivers get: the event under data, and test', (type) => {
    const validate = validatorOf('webhookDeliveries', `${camel(type)}Delivery`);
    const { payload } = envelopeOf(type);
    for (const test of [false, true]) expect(validate(JSON.parse(webhookDeliveryBody(payload, { test }))) ? [] : validate.errors).toEqual([]);
    expect(validate({ data: [payload] })).toBe(false);
    expect(validate(payload)).toBe(false);
  });
});
