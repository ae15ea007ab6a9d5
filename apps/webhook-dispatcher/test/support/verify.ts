import { Webhook } from 'standardwebhooks';
import type { ReceivedRequest } from './receiver';

/** Checks a delivery with the public standardwebhooks library, its header names mapped from `hook-*`. */
export function verify(secret: string, request: ReceivedRequest): { data: { event: string; eventId: string }[] } {
  const header = (name: string) => String(request.headers[`hook-${name}`]);
  return new Webhook(secret).verify(request.body, {
    'webhook-id': header('id'),
    'webhook-timestamp': header('timestamp'),
    'webhook-signature': header('signature'),
  }) as { data: { event: string; eventId: string }[] };
}
