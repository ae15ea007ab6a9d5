import type { DeliveryRequest, DeliveryResponse, WebhookSender } from '../delivery/delivery-client';
import { LISTEN_URL_PREFIX, type ListenHub } from './listen-hub';

/** Sends an attempt to a listen session's stream when its endpoint is one, over HTTPS otherwise. */
export class ListenAwareSender implements WebhookSender {
  constructor(
    private readonly https: WebhookSender,
    private readonly hub: ListenHub,
  ) {}

  send(request: DeliveryRequest): Promise<DeliveryResponse> {
    if (request.url.startsWith(LISTEN_URL_PREFIX)) return this.hub.deliver(request.url.slice(LISTEN_URL_PREFIX.length), request);
    return this.https.send(request);
  }
}
