import { Body, Controller, Delete, Get, HttpCode, Inject, Patch, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags, type SchemaObject } from '@nestjs/swagger';
import { PUBLIC_EVENT_TYPES } from '@storage/domain';
import { ApiKeyAuth, CurrentApiKey, WriteOperation, type ApiKeyPrincipal } from '../auth';
import { ApiInvalidResponse } from '../common';
import { SubscriptionsService } from './subscriptions.service';
import { WebhookCommandsService } from './webhook-commands.service';
import {
  CreatedSubscription,
  CreateSubscription,
  ListenSessionGrant,
  OpenListenSession,
  PortalLink,
  SendTestEvent,
  SubscriptionList,
  SubscriptionView,
  targetUrlDoc,
  TestEventSent,
  Unsubscribe,
  Unsubscribed,
  UpdateSubscription,
} from './webhooks.dto';

const portfolioQuery = ApiQuery({
  name: 'portfolio',
  required: false,
  description: 'The portfolio (database prefix); required when the API key reaches several portfolios.',
});

/** Operations 15 to 20. */
@ApiKeyAuth()
@ApiInvalidResponse()
@ApiNotFoundResponse({ description: 'The portfolio is unknown or out of the key’s reach, or it has no such subscription or endpoint.' })
@ApiTags('Webhooks')
@Controller('api/v1/webhooks')
export class WebhooksController {
  constructor(
    @Inject(SubscriptionsService) private readonly subscriptions: SubscriptionsService,
    @Inject(WebhookCommandsService) private readonly commands: WebhookCommandsService,
  ) {}

  @Post('subscriptions')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'createWebhookSubscription',
    summary: 'Create a webhook subscription',
    description:
      "Creates the portfolio's webhook endpoint for `targetUrl` (HTTPS, no query string, public addresses only) subscribed to the event types, optionally filtered by facility, amenity and unit type. Answers the endpoint's `whsec_` signing secret, shown only here and in the webhook portal: store it to verify deliveries (see `webhooks`).",
  })
  @ApiOkResponse({ type: CreatedSubscription })
  @ApiConflictResponse({ description: 'The URL or the vendor already has an endpoint in the portfolio.' })
  create(@CurrentApiKey() principal: ApiKeyPrincipal, @Body() body: CreateSubscription): Promise<CreatedSubscription> {
    return this.subscriptions.create(principal, body);
  }

  @Get('subscriptions')
  @ApiOperation({
    operationId: 'listWebhookSubscriptions',
    summary: 'List webhook subscriptions',
    description: "The portfolio's webhook endpoints and their event types and filters, optionally only those of a `targetUrl` or subscribed to an `eventType`.",
  })
  @ApiQuery({ name: 'targetUrl', required: false })
  @ApiQuery({ name: 'eventType', required: false, enum: [...PUBLIC_EVENT_TYPES] })
  @portfolioQuery
  @ApiOkResponse({ type: SubscriptionList })
  list(
    @CurrentApiKey() principal: ApiKeyPrincipal,
    @Query('portfolio') portfolio?: string,
    @Query('targetUrl') targetUrl?: string,
    @Query('eventType') eventType?: string,
  ): Promise<SubscriptionList> {
    return this.subscriptions.list(principal, { portfolio, targetUrl, eventType });
  }

  @Patch('subscriptions')
  @ApiOperation({
    operationId: 'updateWebhookSubscription',
    summary: 'Update a webhook subscription',
    description: 'Replaces the event types, description, filters or delivery settings of the endpoint identified by `targetUrl`; absent fields are kept.',
  })
  @ApiQuery({ name: 'targetUrl', required: false, schema: targetUrlDoc('Identifies the subscription (or give it in the body).') as SchemaObject })
  @portfolioQuery
  @ApiOkResponse({ type: SubscriptionView })
  update(
    @CurrentApiKey() principal: ApiKeyPrincipal,
    @Body() body: UpdateSubscription,
    @Query('portfolio') portfolio?: string,
    @Query('targetUrl') targetUrl?: string,
  ): Promise<SubscriptionView> {
    return this.subscriptions.update(principal, { portfolio, targetUrl }, body);
  }

  @Delete('subscriptions')
  @ApiOperation({
    operationId: 'unsubscribeWebhook',
    summary: 'Unsubscribe from event types',
    description:
      "Removes event types from the vendor's endpoint; when none remain, the endpoint is removed. A partial unsubscribe answers the removed and remaining event types.",
  })
  @ApiOkResponse({ type: Unsubscribed })
  unsubscribe(@CurrentApiKey() principal: ApiKeyPrincipal, @Body() body: Unsubscribe): Promise<Unsubscribed> {
    return this.subscriptions.unsubscribe(principal, body);
  }

  @Post('subscriptions/test')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'sendWebhookTestEvent',
    summary: 'Send a test event',
    description:
      "Sends a test message of the event type to every enabled endpoint of the portfolio subscribed to it, whatever its filters: the event's shape on the all-zero rental (see `webhooks`). 404 when no enabled endpoint subscribes to the type.",
  })
  @ApiOkResponse({ type: TestEventSent })
  test(@CurrentApiKey() principal: ApiKeyPrincipal, @Body() body: SendTestEvent): Promise<TestEventSent> {
    return this.commands.sendTestEvent(principal, body);
  }

  @Get('dashboard-link')
  @WriteOperation()
  @ApiOperation({
    operationId: 'getWebhookDashboardLink',
    summary: 'Get a webhook portal link (write key: the portal manages endpoints and reveals secrets)',
    description:
      'A link to the webhook portal of the portfolio, valid 7 days and bound to this key (revoking the key ends it): endpoints, delivery history with every attempt, success rates, secrets (reveal, rotate) and resends. Needs a write key.',
  })
  @portfolioQuery
  @ApiOkResponse({ type: PortalLink })
  dashboardLink(@CurrentApiKey() principal: ApiKeyPrincipal, @Query('portfolio') portfolio?: string): Promise<PortalLink> {
    return this.commands.portalLink(principal, portfolio);
  }

  @Post('listen')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'openWebhookListenSession',
    summary: 'Open a `webhooks listen` session (extension; write key)',
    description:
      "Extension operation behind `npm run cli -- webhooks listen`: a grant, bound to this key, to open a session stream at the dispatcher. The session is an endpoint of the portfolio for the stream's life (same filters, fan-out and retries; shown in the portal, not in operation 16), receiving the event types asked for, every one when none are given; each delivery is signed with the session's own secret, which the stream's first message names. Needs a write key.",
  })
  @ApiOkResponse({ type: ListenSessionGrant })
  listen(@CurrentApiKey() principal: ApiKeyPrincipal, @Body() body: OpenListenSession): Promise<ListenSessionGrant> {
    return this.commands.listenGrant(principal, body);
  }
}
