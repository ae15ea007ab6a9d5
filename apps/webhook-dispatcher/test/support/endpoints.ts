import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { PUBLIC_EVENT_TYPES } from '@storage/domain';
import { generateSecret } from '@storage/webhooks';

export interface SeedEndpoint {
  portfolio?: string;
  url: string;
  eventTypes?: readonly string[];
  facilityUuids?: string[];
  unitTypes?: string[];
  amenityUuids?: string[];
  vendorName?: string;
}

/** Inserts an endpoint as operation 15 would, returning its id and secret. */
export async function seedEndpoint(dataSource: DataSource, seed: SeedEndpoint): Promise<{ id: string; secret: string }> {
  const id = randomUUID();
  const secret = generateSecret();
  await dataSource.query(
    `INSERT INTO webhook_endpoints (id, portfolio, vendor_name, url, description, event_types, facility_uuids, unit_types, amenity_uuids, secret)
     VALUES ($1, $2, $3, $4, 'test endpoint', $5, $6, $7, $8, $9)`,
    [
      id,
      seed.portfolio ?? 'acme',
      seed.vendorName ?? `vendor-${id.slice(0, 8)}`,
      seed.url,
      seed.eventTypes ?? PUBLIC_EVENT_TYPES,
      seed.facilityUuids ?? [],
      seed.unitTypes ?? [],
      seed.amenityUuids ?? [],
      secret,
    ],
  );
  return { id, secret };
}
