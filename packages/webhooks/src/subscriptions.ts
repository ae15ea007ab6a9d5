import { query, sql, type Queryable } from '@storage/persistence';

/*
 * The api's writes and reads of subscriptions (operations 15 to 18) on `webhook_endpoints`, this package's table:
 * the api calls these instead of writing the table itself. `webhooks listen` sessions are not subscriptions: none of
 * these sees them. Secrets arrive sealed (`SecretKeyring`).
 */

/** An endpoint as a subscription: where, for whom, what it receives. */
export interface Subscription {
  id: string;
  portfolio: string;
  vendorName: string;
  url: string;
  description: string;
  eventTypes: string[];
  facilityUuids: string[];
  unitTypes: string[];
  amenityUuids: string[];
}

/** How the dispatcher delivers to an endpoint. */
export interface DeliverySettings {
  /** A rental's later message waits until its earlier ones to this endpoint succeeded or were given up. */
  orderedDelivery: boolean;
  /** Deliveries to this endpoint in flight at once, per dispatcher replica. */
  maxInFlight: number;
}

/** A subscription as stored, with how it is delivered. */
export type SubscriptionEndpoint = Subscription & DeliverySettings;

/** What an endpoint created without delivery settings gets: the columns' defaults. */
export const DEFAULT_DELIVERY_SETTINGS: Readonly<DeliverySettings> = { orderedDelivery: false, maxInFlight: 16 };

/** A new endpoint; `sealedSecret` is the keyring's seal of its secret for `id`; absent settings are the defaults. */
export interface NewSubscription extends Subscription, Partial<DeliverySettings> {
  sealedSecret: string;
}

/** The URL (the portal's edit; operation 17 names the endpoint by it), filters, event types and delivery settings to change; null keeps the stored value. */
export interface SubscriptionChanges {
  url: string | null;
  eventTypes: string[] | null;
  description: string | null;
  facilityUuids: string[] | null;
  unitTypes: string[] | null;
  amenityUuids: string[] | null;
  orderedDelivery: boolean | null;
  maxInFlight: number | null;
}

/** The unique constraint a second endpoint of the same vendor in a portfolio breaks (the other: the same url). */
export const VENDOR_CONSTRAINT = 'uq_webhook_endpoints_portfolio_vendor';

const COLUMNS = `id, portfolio, vendor_name AS "vendorName", url, description, event_types AS "eventTypes",
  facility_uuids AS "facilityUuids", unit_types AS "unitTypes", amenity_uuids AS "amenityUuids",
  ordered_delivery AS "orderedDelivery", max_in_flight AS "maxInFlight"`;

const INSERT = sql<
  SubscriptionEndpoint,
  [
    id: string,
    portfolio: string,
    vendorName: string,
    url: string,
    description: string,
    eventTypes: string[],
    facilityUuids: string[],
    unitTypes: string[],
    amenityUuids: string[],
    sealedSecret: string,
    orderedDelivery: boolean,
    maxInFlight: number,
  ]
>(
  `INSERT INTO webhook_endpoints
     (id, portfolio, vendor_name, url, description, event_types, facility_uuids, unit_types, amenity_uuids, secret, ordered_delivery, max_in_flight)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING ${COLUMNS}`,
);
const LIST = sql<SubscriptionEndpoint, [string, string | null, string | null]>(
  `SELECT ${COLUMNS} FROM webhook_endpoints
    WHERE portfolio = $1 AND listen_api_key IS NULL AND ($2::text IS NULL OR url = $2) AND ($3::text IS NULL OR $3 = ANY(event_types))
    ORDER BY created_at, id`,
);
const CHANGE = sql<
  SubscriptionEndpoint,
  [string, string, string[] | null, string | null, string[] | null, string[] | null, string[] | null, boolean | null, number | null, string | null]
>(
  `UPDATE webhook_endpoints SET url = COALESCE($10, url),
     event_types = COALESCE($3, event_types), description = COALESCE($4, description),
     facility_uuids = COALESCE($5, facility_uuids), unit_types = COALESCE($6, unit_types),
     amenity_uuids = COALESCE($7, amenity_uuids), ordered_delivery = COALESCE($8, ordered_delivery),
     max_in_flight = COALESCE($9, max_in_flight), updated_at = now()
   WHERE portfolio = $1 AND url = $2 AND listen_api_key IS NULL
   RETURNING ${COLUMNS}`,
);
const LOCK_VENDOR = sql<SubscriptionEndpoint, [string, string]>(
  `SELECT ${COLUMNS} FROM webhook_endpoints WHERE portfolio = $1 AND vendor_name = $2 AND listen_api_key IS NULL FOR UPDATE`,
);
const SET_EVENT_TYPES = sql<never, [string, readonly string[]]>('UPDATE webhook_endpoints SET event_types = $2, updated_at = now() WHERE id = $1');
const REMOVE = sql<never, [string]>('DELETE FROM webhook_endpoints WHERE id = $1');

/** Inserts the endpoint; a vendor or url the portfolio has already fails with the driver's unique violation. */
export async function insertSubscription(db: Queryable, endpoint: NewSubscription): Promise<SubscriptionEndpoint> {
  const [inserted] = await query(db, INSERT, [
    endpoint.id,
    endpoint.portfolio,
    endpoint.vendorName,
    endpoint.url,
    endpoint.description,
    endpoint.eventTypes,
    endpoint.facilityUuids,
    endpoint.unitTypes,
    endpoint.amenityUuids,
    endpoint.sealedSecret,
    endpoint.orderedDelivery ?? DEFAULT_DELIVERY_SETTINGS.orderedDelivery,
    endpoint.maxInFlight ?? DEFAULT_DELIVERY_SETTINGS.maxInFlight,
  ]);
  return inserted;
}

/** The portfolio's subscriptions, oldest first, optionally of one url and one event type. */
export async function listSubscriptions(
  db: Queryable,
  portfolio: string,
  filter: { url: string | null; eventType: string | null },
): Promise<SubscriptionEndpoint[]> {
  return query(db, LIST, [portfolio, filter.url, filter.eventType]);
}

/** Changes the portfolio's endpoint of `url`; null when it has none. A url the portfolio has already fails with the driver's unique violation. */
export async function changeSubscription(db: Queryable, portfolio: string, url: string, changes: SubscriptionChanges): Promise<SubscriptionEndpoint | null> {
  const [changed] = await query(db, CHANGE, [
    portfolio,
    url,
    changes.eventTypes,
    changes.description,
    changes.facilityUuids,
    changes.unitTypes,
    changes.amenityUuids,
    changes.orderedDelivery,
    changes.maxInFlight,
    changes.url,
  ]);
  return changed ?? null;
}

/** The vendor's endpoint in the portfolio, locked for the caller's transaction; null when it has none. */
export async function lockVendorSubscription(db: Queryable, portfolio: string, vendorName: string): Promise<SubscriptionEndpoint | null> {
  const [locked] = await query(db, LOCK_VENDOR, [portfolio, vendorName]);
  return locked ?? null;
}

/** The endpoint now receives only `eventTypes` (at least one: with none, `removeSubscription`). */
export async function setSubscribedEventTypes(db: Queryable, id: string, eventTypes: readonly string[]): Promise<void> {
  await query(db, SET_EVENT_TYPES, [id, eventTypes]);
}

/** Removes the endpoint, its messages and attempts with it (foreign keys). */
export async function removeSubscription(db: Queryable, id: string): Promise<void> {
  await query(db, REMOVE, [id]);
}
