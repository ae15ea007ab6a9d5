import { randomUUID } from 'node:crypto';
import { ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InvalidRequestException } from '@storage/platform';
import type { PublicEventType } from '@storage/domain';
import { generateSecret, SecretKeyring, type AddressPolicy, type HostResolver } from '@storage/webhooks';
import { ApiKeyService, type ApiKeyPrincipal, type PortfolioRef } from '../auth';
import { eventTypeOf, eventTypesOf, filterUuids, targetUrlSyntax, vettedTargetUrl } from './subscription-input';
import type { CreatedSubscription, CreateSubscription, SubscriptionList, SubscriptionView, Unsubscribe, Unsubscribed, UpdateSubscription } from './webhooks.dto';
import { ADDRESS_POLICY, HOST_RESOLVER } from './webhooks.tokens';

interface EndpointRow {
  id: string;
  portfolio: string;
  vendorName: string;
  url: string;
  description: string;
  eventTypes: PublicEventType[];
  facilityUuids: string[];
  unitTypes: string[];
  amenityUuids: string[];
}

const ENDPOINT_COLUMNS = `id, portfolio, vendor_name AS "vendorName", url, description, event_types AS "eventTypes",
  facility_uuids AS "facilityUuids", unit_types AS "unitTypes", amenity_uuids AS "amenityUuids"`;

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
});

const UNIQUE_VIOLATION = '23505';

/** Operations 15 to 18 on the dispatcher's webhook_endpoints table (secrets sealed with the keyring). */
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
      const rows: EndpointRow[] = await this.dataSource.query(
        `INSERT INTO webhook_endpoints (id, portfolio, vendor_name, url, description, event_types, facility_uuids, unit_types, amenity_uuids, secret)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${ENDPOINT_COLUMNS}`,
        [id, portfolio.portfolioId, input.vendorName, url, input.description, eventTypes, filterUuids(input.facilityUuids), filterUuids(input.unitTypes), filterUuids(input.amenityUuids), this.keyring.seal(secret, id)],
      );
      return { endpointId: id, ...view(rows[0]), secret };
    } catch (error) {
      if ((error as { driverError?: { code?: string; constraint?: string } }).driverError?.code !== UNIQUE_VIOLATION) throw error;
      const byVendor = (error as { driverError: { constraint?: string } }).driverError.constraint === 'uq_webhook_endpoints_portfolio_vendor';
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
    const rows: EndpointRow[] = await this.dataSource.query(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
       WHERE portfolio = $1 AND ($2::text IS NULL OR url = $2) AND ($3::text IS NULL OR $3 = ANY(event_types))
       ORDER BY created_at, id`,
      [portfolio.portfolioId, query.targetUrl ?? null, eventType],
    );
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
    const rows: EndpointRow[] = await this.dataSource.query(
      `WITH updated AS (
         UPDATE webhook_endpoints SET
           event_types = COALESCE($3, event_types), description = COALESCE($4, description),
           facility_uuids = COALESCE($5, facility_uuids), unit_types = COALESCE($6, unit_types),
           amenity_uuids = COALESCE($7, amenity_uuids), updated_at = now()
         WHERE portfolio = $1 AND url = $2
         RETURNING ${ENDPOINT_COLUMNS})
       SELECT * FROM updated`,
      [portfolio.portfolioId, url, eventTypes, input.description ?? null, filter(input.facilityUuids), filter(input.unitTypes), filter(input.amenityUuids)],
    );
    if (rows.length === 0) throw new NotFoundException(`No subscription for ${url} in portfolio ${portfolio.portfolioId}.`);
    return view(rows[0]);
  }

  /** Operation 18: removes the listed types; with none left the endpoint goes too (its messages with it). */
  async unsubscribe(principal: ApiKeyPrincipal, input: Unsubscribe): Promise<Unsubscribed> {
    const portfolio = await this.portfolio(principal, input.portfolio);
    const removing = eventTypesOf(input.eventTypes);
    return this.dataSource.transaction(async (manager) => {
      const rows: EndpointRow[] = await manager.query(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE portfolio = $1 AND vendor_name = $2 FOR UPDATE`,
        [portfolio.portfolioId, input.vendorName],
      );
      const endpoint = rows[0];
      if (!endpoint) throw new NotFoundException(`Vendor ${input.vendorName} has no endpoint in portfolio ${portfolio.portfolioId}.`);
      const result = { applicationId: applicationIdOf(endpoint.portfolio), vendorName: endpoint.vendorName, endpointId: endpoint.id, url: endpoint.url };
      const remaining = endpoint.eventTypes.filter((type) => !removing.includes(type));
      if (remaining.length === 0) {
        await manager.query('DELETE FROM webhook_endpoints WHERE id = $1', [endpoint.id]);
        return result;
      }
      await manager.query('UPDATE webhook_endpoints SET event_types = $2, updated_at = now() WHERE id = $1', [endpoint.id, remaining]);
      return { ...result, unsubscribedEventTypes: endpoint.eventTypes.filter((type) => removing.includes(type)), remainingEventTypes: remaining };
    });
  }
}
