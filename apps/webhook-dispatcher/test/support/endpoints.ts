import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { PUBLIC_EVENT_TYPES } from '@storage/domain';
import { generateSecret, type SecretKeyring } from '@storage/webhooks';
import { testKeyring } from './secret-keys';
import { query, sql } from '@storage/persistence';

export interface SeedEndpoint {
  portfolio?: string;
  url: string;
  eventTypes?: readonly string[];
  facilityUuids?: string[];
  unitTypes?: string[];
  amenityUuids?: string[];
  vendorName?: string;
  /** The keyring that seals the secret (the test keyring); null stores it bare, as before secrets were sealed. */
  sealWith?: SecretKeyring | null;
}

/** Inserts an endpoint as operation 15 would, returning its id and its secret in plain text. */
export async function seedEndpoint(dataSource: DataSource, seed: SeedEndpoint): Promise<{ id: string; secret: string }> {
  const id = randomUUID();
  const secret = generateSecret();
  await query(
    dataSource,
    sql(`INSERT INTO webhook_endpoints (id, portfolio, vendor_name, url, description, event_types, facility_uuids, unit_types, amenity_uuids, secret)
     VALUES ($1, $2, $3, $4, 'test endpoint', $5, $6, $7, $8, $9)`),
    [
      id,
      seed.portfolio ?? 'acme',
      seed.vendorName ?? `vendor-${id.slice(0, 8)}`,
      seed.url,
      seed.eventTypes ?? PUBLIC_EVENT_TYPES,
      seed.facilityUuids ?? [],
      seed.unitTypes ?? [],
      seed.amenityUuids ?? [],
      seed.sealWith === null ? secret : (seed.sealWith ?? testKeyring).seal(secret, id),
    ],
  );
  return { id, secret };
}
