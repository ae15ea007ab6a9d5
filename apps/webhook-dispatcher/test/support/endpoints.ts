import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { PUBLIC_EVENT_TYPES } from '@storage/domain';
import { disableEndpoints, generateSecret, insertSubscription, removeSubscription, type SecretKeyring } from '@storage/webhooks';
import { testKeyring } from './secret-keys';
import { query, sql, type Queryable } from '@storage/persistence';

export interface SeedEndpoint {
  portfolio?: string;
  url: string;
  eventTypes?: readonly string[];
  facilityUuids?: string[];
  unitTypes?: string[];
  amenityUuids?: string[];
  vendorName?: string;
  orderedDelivery?: boolean;
  maxInFlight?: number;
  /** The keyring that seals the secret (the test keyring); null stores it bare, as before secrets were sealed. */
  sealWith?: SecretKeyring | null;
}

/** Inserts an endpoint as operation 15 does, through its owner (@storage/webhooks), returning its id and its secret in plain text. */
export async function seedEndpoint(dataSource: DataSource, seed: SeedEndpoint): Promise<{ id: string; secret: string }> {
  const id = randomUUID();
  const secret = generateSecret();
  await insertSubscription(dataSource, {
    id,
    portfolio: seed.portfolio ?? 'acme',
    vendorName: seed.vendorName ?? `vendor-${id.slice(0, 8)}`,
    url: seed.url,
    description: 'test endpoint',
    eventTypes: [...(seed.eventTypes ?? PUBLIC_EVENT_TYPES)],
    facilityUuids: seed.facilityUuids ?? [],
    unitTypes: seed.unitTypes ?? [],
    amenityUuids: seed.amenityUuids ?? [],
    sealedSecret: seed.sealWith === null ? secret : (seed.sealWith ?? testKeyring).seal(secret, id),
    orderedDelivery: seed.orderedDelivery,
    maxInFlight: seed.maxInFlight,
  });
  return { id, secret };
}

/** Removes every endpoint (their messages and attempts with them), one by one as their owner removes a subscription. */
export async function removeAllEndpoints(db: Queryable): Promise<void> {
  const endpoints = await query(db, sql<{ id: string }>('SELECT id FROM webhook_endpoints'));
  for (const { id } of endpoints) await removeSubscription(db, id);
}

/** Disables the endpoint now, with `reason`, as the dispatcher disables an endpoint that answered 410 Gone. */
export async function disableEndpoint(db: Queryable, id: string, reason = 'disabled by the test'): Promise<void> {
  const at = new Date();
  await disableEndpoints(db, { at, gone: [id], goneReason: reason, failed: [], failingCutoff: at, failingReason: reason });
}
