import type { OpenAPIObject, OperationObject, ParameterObject } from '@nestjs/swagger';
import {
  EVENT_EMITTED_WHEN,
  EVENT_PAYLOAD_SCHEMAS,
  eventJsonSchema,
  PUBLIC_EVENT_TYPES,
  WEBHOOK_HEADERS,
  WEBHOOK_SIGNATURE_VERIFICATION,
  webhookDeliveryBody,
  webhookDeliveryBodySchema,
  webhookTestPayload,
  type PublicEventType,
} from '@storage/domain';

/*
 * The webhook deliveries as OpenAPI 3.1 `webhooks`, one per public event: the body from the zod schemas the
 * producers and the dispatcher validate with (as docs/asyncapi.json), the signature headers, and what the
 * dispatcher does with the receiver's answer (apps/webhook-dispatcher/src/delivery).
 */

/** A fixed time, so the committed document does not change with the day it is generated. */
const EXAMPLE_AT = new Date('2025-04-02T14:03:27.512Z');

/** `moved-in` → `MovedIn`: names of components and operations. */
const pascal = (type: string): string => type.replace(/(^|-)(.)/g, (_, _dash: string, letter: string) => letter.toUpperCase());

export const payloadSchemaName = (type: PublicEventType): string => `${pascal(type)}Payload`;
export const deliverySchemaName = (type: PublicEventType): string => `${pascal(type)}Delivery`;

const HEADER_PARAMETERS: ParameterObject[] = Object.entries(WEBHOOK_HEADERS).map(([name, { description, ...schema }]) => ({
  name,
  in: 'header',
  required: true,
  description: name === 'hook-signature' ? `${description} ${WEBHOOK_SIGNATURE_VERIFICATION}` : description,
  schema,
}));

const DELIVERY = `POSTed as \`application/json\` to the \`targetUrl\` of every enabled subscription of the portfolio to this
event type whose facility, unit type and amenity filters match (operation 15). Each delivery is signed: check
\`hook-signature\` over the raw body before parsing it. A message keeps its \`hook-id\` on every retry; deduplicate on it or on
\`data[0].eventId\`. Every body carries a top-level boolean \`test\`: \`false\` for a real event, \`true\` only for the test
messages of operation 19, which are sent whatever the filters, of the same shape and formats as a real event, on the all-zero
rental (UUIDs \`00000000-0000-0000-0000-000000000000\`).`;

/** What the dispatcher does with the receiver's answer, the same for every message. */
const RESPONSES: OperationObject['responses'] = {
  '2XX': { description: 'Delivered: any 2xx answer acknowledges the message; the body of the answer is not read.' },
  '410': { description: 'Gone: the message fails and the subscription’s endpoint is disabled (no further deliveries until it is enabled again).' },
  default: {
    description:
      'Any other status, a connection failure or no answer within 15 seconds: retried, 8 tries in all over about 28 hours ' +
      '(5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, ±20 %), at least 60 s after a 429 or a timeout, and not before a `Retry-After` ' +
      '(capped at 24 h). An endpoint failing for 5 days without a success is disabled.',
  },
};

/** Operation 19's message of the type, as the dispatcher sends it. */
const testExample = (type: PublicEventType) => ({
  summary: `The test message of operation 19 for ${type} (\`test: true\`)`,
  value: JSON.parse(webhookDeliveryBody(webhookTestPayload(type, EXAMPLE_AT), { test: true })) as unknown,
});

/** A delivery, signed with the Standard Webhooks headers; the receiver does not check our API key, the signature authenticates it. */
const delivery = (operation: Pick<OperationObject, 'operationId' | 'summary' | 'description' | 'requestBody'>): OperationObject => ({
  ...operation,
  tags: ['Webhooks'],
  security: [],
  parameters: HEADER_PARAMETERS,
  responses: RESPONSES,
});

function webhook(type: PublicEventType): OperationObject {
  return delivery({
    operationId: `${pascal(type).replace(/^./, (letter) => letter.toLowerCase())}Webhook`,
    summary: `The ${type} event`,
    description: `${EVENT_EMITTED_WHEN[type]}\n\n${DELIVERY}`,
    requestBody: {
      required: true,
      content: {
        'application/json': { schema: { $ref: `#/components/schemas/${deliverySchemaName(type)}` }, examples: { operation19: testExample(type) } },
      },
    },
  });
}

/** The name of operation 19's entry among the `webhooks`. */
export const TEST_WEBHOOK = 'test-event';

/**
 * Operation 19's message: the delivery body of the event type it names, with `test: true`, on the all-zero rental. One
 * entry for integrators who handle test messages apart; its schema is the seven delivery bodies' with `test` fixed.
 */
function testWebhook(): OperationObject {
  return delivery({
    operationId: 'testEventWebhook',
    summary: 'A test message (operation 19)',
    description: `Sent by operation 19 (\`POST /api/v1/webhooks/subscriptions/test\`) to the endpoints of the portfolio subscribed to the
event type it names, whatever their filters: the body of that event type's webhook, with \`test: true\`, every field in the formats of a
real event, on the all-zero rental and tenant. A receiver should verify it and answer 2xx, and need not act on it.\n\n${DELIVERY}`,
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            oneOf: PUBLIC_EVENT_TYPES.map((type) => ({
              allOf: [
                { $ref: `#/components/schemas/${deliverySchemaName(type)}` },
                { type: 'object', required: ['test'], properties: { test: { type: 'boolean', enum: [true] } } },
              ],
            })),
          },
          examples: Object.fromEntries(PUBLIC_EVENT_TYPES.map((type) => [type, testExample(type)])),
        },
      },
    },
  });
}

/** The document with its `webhooks`, and the payload and delivery body schemas they reference. */
export function documentWebhooks(document: OpenAPIObject): OpenAPIObject {
  const schemas = Object.fromEntries(
    PUBLIC_EVENT_TYPES.flatMap((type) => [
      [payloadSchemaName(type), eventJsonSchema(EVENT_PAYLOAD_SCHEMAS[type], 'draft-2020-12')],
      [deliverySchemaName(type), webhookDeliveryBodySchema({ $ref: `#/components/schemas/${payloadSchemaName(type)}` })],
    ]),
  );
  return {
    ...document,
    webhooks: { ...Object.fromEntries(PUBLIC_EVENT_TYPES.map((type) => [type, { post: webhook(type) }])), [TEST_WEBHOOK]: { post: testWebhook() } },
    components: { ...document.components, schemas: { ...document.components?.schemas, ...schemas } },
  };
}
