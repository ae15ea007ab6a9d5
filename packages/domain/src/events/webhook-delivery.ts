/**
 * The wire contract of a webhook delivery, shared by the dispatcher that sends it and by the AsyncAPI and OpenAPI
 * documents that describe it.
 */

/** What a delivered message is: a real event, or operation 19's test message (`test: true`). */
export interface WebhookDeliveryKind {
  test: boolean;
}

/**
 * The body every endpoint receives for an event: `{"data": [payload], "test": false}` (spec 6.2), `"test": true` for
 * operation 19's test messages. `test` comes last, so a body stored before it existed is told apart by its end (`]}`).
 */
export const webhookDeliveryBody = (payload: unknown, { test }: WebhookDeliveryKind): string => JSON.stringify({ data: [payload], test });

/** What the `test` field of a delivery body means, for the published documents. */
export const WEBHOOK_TEST_FLAG_DESCRIPTION =
  '`true` only for the test messages of operation 19 (`POST /api/v1/webhooks/subscriptions/test`), which carry a sample event on the ' +
  'all-zero rental (UUIDs `00000000-0000-0000-0000-000000000000`) in the same formats as real events; `false` for every real event.';

/** The JSON Schema of `webhookDeliveryBody`, given the schema (or `$ref`) of the event's payload. */
export const webhookDeliveryBodySchema = (payload: Record<string, unknown>): Record<string, unknown> => ({
  type: 'object',
  description: 'A delivery body: the event under `data` (an array, spec 6.2), and whether it is a test message under `test`.',
  properties: {
    data: { type: 'array', minItems: 1, maxItems: 1, items: payload },
    test: { type: 'boolean', description: WEBHOOK_TEST_FLAG_DESCRIPTION },
  },
  required: ['data', 'test'],
});

/** The Standard Webhooks headers of every delivery, named as in spec 5.1, with their schema. */
export const WEBHOOK_HEADERS = {
  'hook-id': { type: 'string', description: 'The message id, the same on every retry of the message.' },
  'hook-timestamp': { type: 'string', pattern: '^[0-9]+$', description: 'Seconds since the epoch when the attempt was signed.' },
  'hook-signature': {
    type: 'string',
    description: 'Space-separated `v1,<base64 HMAC-SHA256>` entries, one per live endpoint secret (the key is the base64-decoded part of the `whsec_` secret).',
  },
} as const;

/** How a receiver checks a delivery (spec 5.1, Standard Webhooks). */
export const WEBHOOK_SIGNATURE_VERIFICATION =
  'Signed content: `<hook-id>.<hook-timestamp>.<raw body>`. Key: the base64-decoded part of the endpoint secret after `whsec_`. ' +
  'Expected signature: base64 of the HMAC-SHA256 of the signed content. `hook-signature` is a space-separated list of `v1,<signature>` ' +
  'entries (two during the 24 hours after a secret rotation); strip the `v1,` prefix and compare each in constant time: one must match.';
