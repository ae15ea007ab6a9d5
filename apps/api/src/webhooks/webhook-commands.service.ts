import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createEnvelope, PUBLIC_EVENT_TYPES } from '@storage/domain';
import type { OutboxPublisher } from '@storage/messaging';
import { query, sql } from '@storage/persistence';
import { issueListenToken, issuePortalToken } from '@storage/webhooks';
import type { ApiKeyPrincipal } from '../auth';
import { eventTypeOf, eventTypesOf } from './subscription-input';
import { SubscriptionsService } from './subscriptions.service';
import type { ListenSessionGrant, OpenListenSession, PortalLink, SendTestEvent, TestEventSent } from './webhooks.dto';
import type { WebhooksConfig } from './webhooks.config';
import { COMMAND_PUBLISHER, WEBHOOKS_CONFIG } from './webhooks.tokens';

const SUBSCRIBED_ENDPOINTS = sql<{ endpoints: number }, [string, string]>(
  `SELECT count(*)::int AS endpoints FROM webhook_endpoints WHERE portfolio = $1 AND $2 = ANY(event_types) AND disabled_at IS NULL`,
);

/**
 * Operations 19 and 20 and `webhooks listen`: each hands work to the webhook-dispatcher (a command through the outbox; a
 * portal link; a grant to open a listen session's stream).
 */
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

  /** `webhooks listen`: a grant, bound to the key, to open a session stream at the dispatcher, which makes the session. */
  async listenGrant(principal: ApiKeyPrincipal, input: OpenListenSession): Promise<ListenSessionGrant> {
    const portfolio = await this.subscriptions.portfolio(principal, input.portfolio);
    const eventTypes = input.eventTypes ? eventTypesOf(input.eventTypes) : [...PUBLIC_EVENT_TYPES];
    const grant = { portfolio: portfolio.portfolioId, apiKeyUuid: principal.apiKeyUuid, eventTypes };
    const { token, expiresAt } = issueListenToken(grant, new Date(), this.config.portalTokenSecret);
    return { streamUrl: `${this.config.portalBaseUrl.replace(/^http/, 'ws')}/listen`, token, expiresAt: expiresAt.toISOString() };
  }
}
