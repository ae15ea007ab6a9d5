import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createEnvelope } from '@storage/domain';
import type { OutboxPublisher } from '@storage/messaging';
import { query, sql } from '@storage/persistence';
import { issuePortalToken } from '@storage/webhooks';
import type { ApiKeyPrincipal } from '../auth';
import { eventTypeOf } from './subscription-input';
import { SubscriptionsService } from './subscriptions.service';
import type { PortalLink, SendTestEvent, TestEventSent } from './webhooks.dto';
import type { WebhooksConfig } from './webhooks.config';
import { COMMAND_PUBLISHER, WEBHOOKS_CONFIG } from './webhooks.tokens';

const SUBSCRIBED_ENDPOINTS = sql<{ endpoints: number }, [string, string]>(
  `SELECT count(*)::int AS endpoints FROM webhook_endpoints WHERE portfolio = $1 AND $2 = ANY(event_types) AND disabled_at IS NULL`,
);

/** Operations 19 and 20: both hand work to the webhook-dispatcher (a command through the outbox; a portal link). */
@Injectable()
export class WebhookCommandsService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(SubscriptionsService) private readonly subscriptions: SubscriptionsService,
    @Inject(COMMAND_PUBLISHER) private readonly publisher: OutboxPublisher,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
  ) {}

  async sendTestEvent(principal: ApiKeyPrincipal, input: SendTestEvent): Promise<TestEventSent> {
    const portfolio = await this.subscriptions.portfolio(principal, input.portfolio);
    const eventType = eventTypeOf(input.eventType, 'eventType');
    return this.dataSource.transaction(async (manager) => {
      const [{ endpoints }] = await query(manager, SUBSCRIBED_ENDPOINTS, [portfolio.portfolioId, eventType]);
      if (endpoints === 0) throw new NotFoundException(`No enabled endpoint of portfolio ${portfolio.portfolioId} subscribes to ${eventType}.`);
      const envelope = createEnvelope({
        type: 'webhook-test-event',
        payload: { portfolio: portfolio.portfolioId, eventType },
        occurredAt: new Date(),
        portfolio: portfolio.portfolioId,
      });
      await this.publisher.publish(manager, envelope);
      return { message: 'Test event sent.', endpoints };
    });
  }

  async portalLink(principal: ApiKeyPrincipal, given: string | undefined): Promise<PortalLink> {
    const portfolio = await this.subscriptions.portfolio(principal, given);
    // Bound to the key: the portal checks on every request that the key is still there and not revoked.
    const { token } = issuePortalToken(portfolio.portfolioId, new Date(), this.config.portalTokenSecret, principal.apiKeyUuid);
    return { url: `${this.config.portalBaseUrl}/portal/login?token=${token}` };
  }
}
