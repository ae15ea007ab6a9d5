import { z } from 'zod';
import { envelopeHeaderSchema } from './envelope';
import { EVENT_PAYLOAD_SCHEMAS, EVENT_TOPIC } from './event-payloads';
import { EVENT_EMITTED_WHEN } from './emitted-when';
import { EVENT_TYPES, PUBLIC_EVENT_TYPES, type EventType } from './event-types';
import { eventJsonSchema } from './json-schema';
import { TOPICS, WEBHOOK_COMMANDS_TOPIC, type Topic } from './topics';
import { WEBHOOK_HEADERS, webhookDeliveryBodySchema } from './webhook-delivery';

/*
 * The AsyncAPI 3.1 document of the platform's events, derived from the schemas producers and consumers validate
 * with, so it cannot drift from them: the Kafka topics (every message an envelope, key = rentalRecordUuid) and the
 * signed webhook deliveries of the seven public events. `npm run asyncapi -w @storage/domain` writes it to
 * docs/asyncapi.json; a test checks the file is current and valid for the official AsyncAPI parser.
 */

const TOPIC_CHANNELS: Record<Topic, { id: string; description: string }> = {
  'storage.tenant-lifecycle.v1': { id: 'tenantLifecycle', description: 'The seven public tenant lifecycle events, in commit order per rental.' },
  'storage.billing.v1': { id: 'billing', description: "Billing facts of a rental's ledger, in commit order per rental." },
  'storage.webhook-commands.v1': { id: 'webhookCommands', description: "The webhook dispatcher's commands (test events, resends, recoveries)." },
};

/** `moved-in` → `movedIn`: ids of components. */
const camel = (name: string): string => name.replace(/-(.)/g, (_, letter: string) => letter.toUpperCase());

/** The document's schemas are draft 7, which AsyncAPI schemas extend. */
const jsonSchema = (schema: z.ZodType): Record<string, unknown> => eventJsonSchema(schema, 'draft-7');

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

const WEBHOOK_HEADERS_SCHEMA = {
  type: 'object',
  description: 'Standard Webhooks headers, named as in spec 5.1. Signed content: `<hook-id>.<hook-timestamp>.<raw body>`.',
  properties: WEBHOOK_HEADERS,
  required: Object.keys(WEBHOOK_HEADERS),
};

/** The document, with its keys in a stable order. */
export function asyncApiDocument(): Record<string, unknown> {
  const kafkaMessages = Object.fromEntries(
    EVENT_TYPES.map((type) => [
      camel(type),
      {
        name: type,
        title: type,
        summary: EVENT_EMITTED_WHEN[type],
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
        summary: EVENT_EMITTED_WHEN[type],
        contentType: 'application/json',
        headers: WEBHOOK_HEADERS_SCHEMA,
        payload: webhookDeliveryBodySchema(ref(`components/schemas/${camel(type)}Payload`)),
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
