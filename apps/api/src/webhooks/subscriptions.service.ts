import { randomUUID } from 'node:crypto';
import { ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InvalidRequestException } from '@storage/platform';
import type { PublicEventType } from '@storage/domain';
import { uniqueViolation } from '@storage/persistence';
import {
  changeSubscription,
  filterUuids,
  generateSecret,
  insertSubscription,
  listSubscriptions,
  lockVendorSubscription,
  removeSubscription,
  SecretKeyring,
  setSubscribedEventTypes,
  VENDOR_CONSTRAINT,
  type AddressPolicy,
  type HostResolver,
  type SubscriptionEndpoint,
} from '@storage/webhooks';
import { ApiKeyService, type ApiKeyPrincipal, type PortfolioRef } from '../auth';
import { eventTypeOf, eventTypesOf, targetUrlSyntax, vettedTargetUrl } from './subscription-input';
import type {
  CreatedSubscription,
  CreateSubscription,
  SubscriptionList,
  SubscriptionView,
  Unsubscribe,
  Unsubscribed,
  UpdateSubscription,
} from './webhooks.dto';
import { ADDRESS_POLICY, HOST_RESOLVER } from './webhooks.tokens';

/** A subscription as stored: its event types are the public ones operations 15 and 17 accepted. */
type EndpointRow = Omit<SubscriptionEndpoint, 'eventTypes'> & { eventTypes: PublicEventType[] };

/** One webhook application per portfolio: its id is derived, so it needs no table. */
export const applicationIdOf = (portfolio: string): string => `app_${portfolio}`;

const view = (row: EndpointRow): SubscriptionView => ({
  applicationId: applicationIdOf(row.portfolio),
  url: row.url,
  subscribedEventTypes: row.eventTypes,
  facilityUuids: row.facilityUuids,
  amenityUuids: row.amenityUuids,
  unitTypes: row.unitTypes,
  databasePrefix: row.portfolio,
  orderedDelivery: row.orderedDelivery,
  maxInFlight: row.maxInFlight,
});

/** Operations 15 to 18 on webhook_endpoints, through its owner `@storage/webhooks` (secrets sealed with the keyring). */
@Injectable()
export class SubscriptionsService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(ApiKeyService) private readonly apiKeys: ApiKeyService,
    @Inject(ADDRESS_POLICY) private readonly policy: AddressPolicy,
    @Inject(HOST_RESOLVER) private readonly resolve: HostResolver,
    @Inject(SecretKeyring) private readonly keyring: SecretKeyring,
  ) {}

  /**
   * The portfolio a webhook call acts on: the one named (404 when the key may not reach it, as when it does
   * not exist), or, when none is named, the key's only portfolio.
   */
  async portfolio(principal: ApiKeyPrincipal, given: string | undefined): Promise<PortfolioRef> {
    if (given !== undefined && given !== '') {
      const portfolio = await this.apiKeys.reachablePortfolio(principal, given);
      if (portfolio === null) throw new NotFoundException(`Portfolio ${given} not found.`);
      return portfolio;
    }
    const reachable = await this.apiKeys.reachablePortfolios(principal);
    if (reachable.length === 1) return reachable[0];
    throw new InvalidRequestException([{ field: 'portfolio', message: 'portfolio is required: this API key reaches several portfolios' }]);
  }

  /** Operation 15: the secret is stored sealed and shown in plain text this once (and in the portal). */
  async create(principal: ApiKeyPrincipal, input: CreateSubscription): Promise<CreatedSubscription> {
    const portfolio = await this.portfolio(principal, input.portfolio);
    const eventTypes = eventTypesOf(input.eventTypes);
    const url = await vettedTargetUrl(input.targetUrl, this.policy, this.resolve);
    const id = randomUUID();
    const secret = generateSecret();
    try {
      const created = (await insertSubscription(this.dataSource, {
        id,
        portfolio: portfolio.portfolioId,
        vendorName: input.vendorName,
        url,
        description: input.description,
        eventTypes,
        facilityUuids: filterUuids(input.facilityUuids ?? []),
        unitTypes: filterUuids(input.unitTypes ?? []),
        amenityUuids: filterUuids(input.amenityUuids ?? []),
        sealedSecret: this.keyring.seal(secret, id),
        orderedDelivery: input.orderedDelivery,
        maxInFlight: input.maxInFlight,
      })) as EndpointRow;
      return { endpointId: id, ...view(created), secret };
    } catch (error) {
      const violation = uniqueViolation(error);
      if (violation === undefined) throw error;
      const byVendor = violation.constraint === VENDOR_CONSTRAINT;
      throw new ConflictException(
        byVendor
          ? `Vendor ${input.vendorName} already has an endpoint in portfolio ${portfolio.portfolioId}; change it with PATCH.`
          : `${url} is already subscribed in portfolio ${portfolio.portfolioId}; change it with PATCH.`,
      );
    }
  }

  async list(principal: ApiKeyPrincipal, query: { portfolio?: string; targetUrl?: string; eventType?: string }): Promise<SubscriptionList> {
    const portfolio = await this.portfolio(principal, query.portfolio);
    const eventType = query.eventType === undefined ? null : eventTypeOf(query.eventType, 'eventType');
    const rows = (await listSubscriptions(this.dataSource, portfolio.portfolioId, { url: query.targetUrl ?? null, eventType })) as EndpointRow[];
    const items = rows.flatMap((row) =>
      row.eventTypes
        .filter((type) => eventType === null || type === eventType)
        .map((type) => ({
          url: row.url,
          description: row.description,
          eventType: type,
          facilityUuids: row.facilityUuids,
          unitTypes: row.unitTypes,
          amenityUuids: row.amenityUuids,
          portfolio: row.portfolio,
          orderedDelivery: row.orderedDelivery,
          maxInFlight: row.maxInFlight,
        })),
    );
    return { applicationId: applicationIdOf(portfolio.portfolioId), items };
  }

  async update(principal: ApiKeyPrincipal, query: { portfolio?: string; targetUrl?: string }, input: UpdateSubscription): Promise<SubscriptionView> {
    if (query.targetUrl !== undefined && input.targetUrl !== undefined && query.targetUrl !== input.targetUrl) {
      throw new InvalidRequestException([{ field: 'targetUrl', message: 'the query and the body name different targetUrl values' }]);
    }
    const given = query.targetUrl ?? input.targetUrl;
    if (given === undefined) throw new InvalidRequestException([{ field: 'targetUrl', message: 'targetUrl is required (query parameter or body)' }]);
    const url = targetUrlSyntax(given, this.policy);
    const portfolio = await this.portfolio(principal, query.portfolio);
    const eventTypes = input.eventTypes === undefined ? null : eventTypesOf(input.eventTypes);
    const filter = (uuids: string[] | undefined) => (uuids === undefined ? null : filterUuids(uuids));
    const changed = (await changeSubscription(this.dataSource, portfolio.portfolioId, url, {
      url: null,
      eventTypes,
      description: input.description ?? null,
      facilityUuids: filter(input.facilityUuids),
      unitTypes: filter(input.unitTypes),
      amenityUuids: filter(input.amenityUuids),
      orderedDelivery: input.orderedDelivery ?? null,
      maxInFlight: input.maxInFlight ?? null,
    })) as EndpointRow | null;
    if (changed === null) throw new NotFoundException(`No subscription for ${url} in portfolio ${portfolio.portfolioId}.`);
    return view(changed);
  }

  /** Operation 18: removes the listed types; with none left the endpoint goes too (its messages with it). */
  async unsubscribe(principal: ApiKeyPrincipal, input: Unsubscribe): Promise<Unsubscribed> {
    const portfolio = await this.portfolio(principal, input.portfolio);
    const removing = eventTypesOf(input.eventTypes);
    return this.dataSource.transaction(async (manager) => {
      const endpoint = (await lockVendorSubscription(manager, portfolio.portfolioId, input.vendorName)) as EndpointRow | null;
      if (endpoint === null) throw new NotFoundException(`Vendor ${input.vendorName} has no endpoint in portfolio ${portfolio.portfolioId}.`);
      const result = { applicationId: applicationIdOf(endpoint.portfolio), vendorName: endpoint.vendorName, endpointId: endpoint.id, url: endpoint.url };
      const remaining = endpoint.eventTypes.filter((type) => !removing.includes(type));
      if (remaining.length === 0) {
        await removeSubscription(manager, endpoint.id);
        return result;
      }
      await setSubscribedEventTypes(manager, endpoint.id, remaining);
      return { ...result, unsubscribedEventTypes: endpoint.eventTypes.filter((type) => removing.includes(type)), remainingEventTypes: remaining };
    });
  }
}
