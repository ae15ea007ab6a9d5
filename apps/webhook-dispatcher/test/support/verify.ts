import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { Webhook } from 'standardwebhooks';
import type { ReceivedRequest } from './receiver';

type DeliveryBody = { data: { event: string; eventId: string }[]; test: boolean };

/** The published AsyncAPI document, whose delivery messages every verified delivery must match. */
const ASYNCAPI = 'asyncapi';
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
ajv.addSchema(JSON.parse(readFileSync(join(__dirname, '../../../../docs/asyncapi.json'), 'utf8')) as object, ASYNCAPI);

/**
 * Checks a delivery with the public standardwebhooks library, its header names mapped from `hook-*`, and its
 * headers and body against the delivery message of its event in docs/asyncapi.json.
 */
export function verify(secret: string, request: ReceivedRequest): DeliveryBody {
  const header = (name: string) => String(request.headers[`hook-${name}`]);
  const body = new Webhook(secret).verify(request.body, {
    'webhook-id': header('id'),
    'webhook-timestamp': header('timestamp'),
    'webhook-signature': header('signature'),
  }) as DeliveryBody;
  const message = `#/components/messages/${body.data[0].event.replace(/-(.)/g, (_, letter: string) => letter.toUpperCase())}Delivery`;
  for (const [part, value] of [
    ['headers', request.headers],
    ['payload', body],
  ] as const) {
    const validate = ajv.getSchema(`${ASYNCAPI}${message}/${part}`);
    if (validate === undefined) throw new Error(`docs/asyncapi.json has no ${message}`);
    if (!validate(value)) throw new Error(`delivery ${part} do not match docs/asyncapi.json ${message}: ${ajv.errorsText(validate.errors)}`);
  }
  return body;
}
