import { z } from 'zod';
import { envelopeHeaderSchema } from './envelope';
import { EVENT_PAYLOAD_SCHEMAS, EVENT_TOPIC } from './event-payloads';
import { EVENT_TYPES, PUBLIC_EVENT_TYPES, type EventType } from './event-types';
import { TOPICS, WEBHOOK_COMMANDS_TOPIC, type Topic } from './topics';

/*
 * The AsyncAPI 3.1 document of the platform's events, derived from the schemas producers and consumers validate
 * with, so it cannot drift from them: the Kafka topics (every message an envelope, key = rentalRecordUuid) and the
 * signed webhook deliveries of the seven public events. `npm run asyncapi -w @storage/domain` writes it to
 * docs/asyncapi.json; a test checks the file is current and valid for the official AsyncAPI parser.
 */

/** When each event is emitted (spec 6.1 for the public ones). */
const EMITTED_WHEN: Record<EventType, string> = {
  'moved-in': 'A lead signs the lease and is converted to a tenant.',
  'moved-out': 'A move-out is completed: by the operator, or by a completed auction.',
  'rent-change': 'A rent modification is applied to an active rental.',
  'delinquency-status-change': 'A payment is missed and the account becomes overdue; a payment resolves delinquency; delinquency stages advance.',
  'recurring-service-change': 'Services are added during or after move-in, or removed from an active rental.',
  auction: 'An auction is created, scheduled, updated, canceled or completed.',
  transfer: 'A tenant transfer to a different unit is completed.',
  'payment-recorded': "A payment is recorded against a rental's ledger (operator, autopay).",
  'charge-posted': "A charge is posted to a rental's ledger (move-in, billing day, late fee), net of its promotions.",
  'payment-declined': "A rental's autopay charge was declined by the payment processor.",
  'webhook-test-event': 'Operation 19: send a test event to the endpoints of a portfolio (internal command).',
  'webhook-resend': 'The webhook portal resends a message (internal command).',
  'webhook-recover': "The webhook portal redelivers an endpoint's failed messages since a time (internal command).",
};

const TOPIC_CHANNELS: Record<Topic, { id: string; description: string }> = {
  'storage.tenant-lifecycle.v1': { id: 'tenantLifecycle', description: 'The seven public tenant lifecycle events, in commit order per rental.' },
  'storage.billing.v1': { id: 'billing', description: "Billing facts of a rental's ledger, in commit order per rental." },
  'storage.webhook-commands.v1': { id: 'webhookCommands', description: "The webhook dispatcher's commands (test events, resends, recoveries)." },
};

/** `moved-in` → `movedIn`: ids of components. */
const camel = (name: string): string => name.replace(/-(.)/g, (_, letter: string) => letter.toUpperCase());

/** A zod schema as the JSON Schema (draft 7, which AsyncAPI schemas extend) of the values it accepts. */
function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json: Record<string, unknown> = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' });
  // The document declares the schema format once, not in every schema.
  delete json.$schema;
  return json;
}

const ref = (path: string) => ({ $ref: `#/${path}` });

function envelopeSchema(type: EventType): Record<string, unknown> {
  const header = jsonSchema(envelopeHeaderSchema) as { properties: Record<string, unknown> };
  return {
    ...header,
    description: 'The envelope every message carries; `payload` is the event.',
    properties: { ...header.properties, type: { type: 'string', const: type }, payload: ref(`components/schemas/${camel(type)}Payload`) },
  };
}

const KAFKA_HEADERS = {
  type: 'object',
  properties: {
    'event-id': { type: 'string', description: "The envelope's eventId: consumers deduplicate on it." },
    'event-type': { type: 'string', description: "The envelope's type." },
  },
  required: ['event-id', 'event-type'],
};

const WEBHOOK_HEADERS = {
  type: 'object',
  description: 'Standard Webhooks headers, named as in spec 5.1. Signed content: `<hook-id>.<hook-timestamp>.<raw body>`.',
  properties: {
    'hook-id': { type: 'string', description: 'The message id, the same on every retry of the message.' },
    'hook-timestamp': { type: 'string', pattern: '^[0-9]+$', description: 'Seconds since the epoch when the attempt was signed.' },
    'hook-signature': {
      type: 'string',
      description:
        'Space-separated `v1,<base64 HMAC-SHA256>` entries, one per live endpoint secret (the key is the base64-decoded part of the `whsec_` secret).',
    },
  },
  required: ['hook-id', 'hook-timestamp', 'hook-signature'],
};

/** The document, with its keys in a stable order. */
export function asyncApiDocument(): Record<string, unknown> {
  const kafkaMessages = Object.fromEntries(
    EVENT_TYPES.map((type) => [
      camel(type),
      {
        name: type,
        title: type,
        summary: EMITTED_WHEN[type],
        contentType: 'application/json',
        headers: KAFKA_HEADERS,
        payload: envelopeSchema(type),
        bindings: {
          kafka: {
            // Webhook commands have no key; every other message is keyed by its rental, whose events stay in order.
            key: EVENT_TOPIC[type] === WEBHOOK_COMMANDS_TOPIC ? { type: 'null' } : { type: 'string', description: 'The rentalRecordUuid.' },
            bindingVersion: '0.5.0',
          },
        },
      },
    ]),
  );
  const webhookMessages = Object.fromEntries(
    PUBLIC_EVENT_TYPES.map((type) => [
      `${camel(type)}Delivery`,
      {
        name: type,
        title: `${type} delivery`,
        summary: EMITTED_WHEN[type],
        contentType: 'application/json',
        headers: WEBHOOK_HEADERS,
        payload: {
          type: 'object',
          description: 'A delivery body: the event under `data` (an array, spec 6.2).',
          properties: { data: { type: 'array', minItems: 1, maxItems: 1, items: ref(`components/schemas/${camel(type)}Payload`) } },
          required: ['data'],
        },
      },
    ]),
  );
  const channels = {
    ...Object.fromEntries(
      TOPICS.map((topic) => [
        TOPIC_CHANNELS[topic].id,
        {
          address: topic,
          description: TOPIC_CHANNELS[topic].description,
          servers: [ref('servers/kafka')],
          messages: Object.fromEntries(
            EVENT_TYPES.filter((type) => EVENT_TOPIC[type] === topic).map((type) => [camel(type), ref(`components/messages/${camel(type)}`)]),
          ),
        },
      ]),
    ),
    webhookDeliveries: {
      address: null,
      description:
        "A subscription's targetUrl (operation 15): the public events it subscribes to, filtered by facility, amenity and unit type, POSTed and signed; a 2xx answer acknowledges, anything else is retried.",
      servers: [ref('servers/webhookReceiver')],
      messages: Object.fromEntries(PUBLIC_EVENT_TYPES.map((type) => [`${camel(type)}Delivery`, ref(`components/messages/${camel(type)}Delivery`)])),
    },
  };
  const operations = {
    ...Object.fromEntries(
      TOPICS.map((topic) => {
        const channel = TOPIC_CHANNELS[topic].id;
        const messages = EVENT_TYPES.filter((type) => EVENT_TOPIC[type] === topic);
        return [
          `publish${channel[0].toUpperCase()}${channel.slice(1)}`,
          {
            action: 'send',
            channel: ref(`channels/${channel}`),
            summary: `Published on ${topic} through the outbox, once per committed change.`,
            messages: messages.map((type) => ref(`channels/${channel}/messages/${camel(type)}`)),
          },
        ];
      }),
    ),
    deliverWebhooks: {
      action: 'send',
      channel: ref('channels/webhookDeliveries'),
      summary: 'Delivered to each matching subscription, signed, with retries.',
      bindings: { http: { method: 'POST', bindingVersion: '0.3.0' } },
      messages: PUBLIC_EVENT_TYPES.map((type) => ref(`channels/webhookDeliveries/messages/${camel(type)}Delivery`)),
    },
  };
  return {
    asyncapi: '3.1.0',
    info: {
      title: 'Storage rental platform events',
      version: '1.0.0',
      description:
        'The tenant lifecycle events and billing facts of the self-storage rental platform: on Kafka (or the embedded log) as envelopes, and the seven public events as signed webhook deliveries. Generated from the schemas in packages/domain.',
    },
    defaultContentType: 'application/json',
    servers: {
      kafka: { host: 'localhost:9092', protocol: 'kafka', description: "A deployment's brokers (KAFKA_BROKERS)." },
      webhookReceiver: {
        host: '{receiverHost}',
        protocol: 'https',
        description: "A subscriber's endpoint: the host of its targetUrl (HTTPS, public addresses only).",
        variables: { receiverHost: { description: 'The host of the subscription targetUrl.' } },
      },
    },
    channels,
    operations,
    components: {
      schemas: Object.fromEntries(EVENT_TYPES.map((type) => [`${camel(type)}Payload`, jsonSchema(EVENT_PAYLOAD_SCHEMAS[type])])),
      messages: { ...kafkaMessages, ...webhookMessages },
    },
  };
}

/** The document as written to docs/asyncapi.json. */
export const serializeAsyncApi = (document: Record<string, unknown>): string => `${JSON.stringify(document, null, 2)}\n`;
