import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { query, sql } from '@storage/persistence';
import { notFound } from '../common';
import { COVERAGES_STATEMENT } from './catalog.queries';
import type { FacilityView, LeadSourceView } from './catalog.dto';

/** What a shopper browses: facilities with their unit groups, coverage options, lead sources. */
@Injectable()
export class CatalogService {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Operation 4, as JSON text: one prepared statement, the body passed through as PostgreSQL built it. */
  async coveragesJson(portfolioUuid: string, facilityUuid: string): Promise<string> {
    const rows = await query(this.dataSource, COVERAGES_STATEMENT, [facilityUuid, portfolioUuid]);
    const row = rows[0];
    if (row === undefined) throw notFound('Facility', facilityUuid);
    return row.body;
  }

  async leadSources(portfolioUuid: string): Promise<LeadSourceView[]> {
    return query(
      this.dataSource,
      sql<LeadSourceView, [string]>('SELECT uuid AS "leadSourceUuid", description FROM lead_sources WHERE portfolio_uuid = $1 ORDER BY description, uuid'),
      [portfolioUuid],
    );
  }

  async facilities(portfolioUuid: string): Promise<FacilityView[]> {
    return query(
      this.dataSource,
      sql<FacilityView, [string]>(`SELECT f.uuid AS "facilityUuid", f.name,
              json_build_object('addressLine1', f.address_line1, 'addressLine2', f.address_line2, 'city', f.city, 'state', f.state,
                                'zip', f.zip, 'country', f.country) AS address,
              f.phone, f.time_zone AS "timeZone", f.operating_hours AS "operatingHours",
              coalesce((SELECT json_agg(json_build_object(
                  'unitGroupUuid', ug.uuid, 'description', ug.description, 'sizeAndTypeUnitGroupUuid', s.uuid, 'unitType', ut.description,
                  'length', s.length::float8, 'width', s.width::float8, 'height', s.height::float8, 'tierLevel', ug.tier_level,
                  'currentStreetRateInPennies', ug.current_street_rate_in_pennies, 'currentWebRateInPennies', ug.current_web_rate_in_pennies,
                  'numVacantUnits', (SELECT count(*) FROM units u WHERE u.unit_group_uuid = ug.uuid AND u.status = 'vacant')
                ) ORDER BY s.length * s.width, ug.tier_level, ug.uuid)
                FROM unit_groups ug JOIN size_and_type_groups s ON s.uuid = ug.size_and_type_group_uuid
                JOIN unit_types ut ON ut.uuid = s.unit_type_uuid WHERE ug.facility_uuid = f.uuid), '[]') AS "unitGroups"
       FROM facilities f WHERE f.portfolio_uuid = $1 ORDER BY f.name, f.uuid`),
      [portfolioUuid],
    );
  }
}
