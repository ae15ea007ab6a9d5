import { Inject, Injectable } from '@nestjs/common';
import { normalizePhone } from '@storage/domain';
import { InvalidRequestException } from '@storage/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { requireFacility } from '../common';
import type { CreateLeadRequest, CreateLeadResult } from './leads.dto';
import { query, sql } from '@storage/persistence';

/** Lead creation (shopping extension): a person for the prospect, and the lead pointing at them. */
@Injectable()
export class LeadsService {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async create(portfolioUuid: string, request: CreateLeadRequest): Promise<CreateLeadResult> {
    return this.dataSource.transaction(async (db) => {
      const facility = await requireFacility(db, portfolioUuid, request.facilityUuid.toLowerCase());
      const unitGroupUuid = request.unitGroupUuid?.toLowerCase() ?? null;
      await checkReferences(db, portfolioUuid, facility.uuid, request, unitGroupUuid);
      const persons = await query(
        db,
        sql<{ uuid: string }>(
          `INSERT INTO persons (portfolio_uuid, first_name, last_name, email, phone, account_type) VALUES ($1, $2, $3, $4, $5, $6) RETURNING uuid`,
        ),
        [
          portfolioUuid,
          request.firstName.trim(),
          request.lastName.trim(),
          request.email?.trim().toLowerCase() ?? null,
          request.phone === undefined ? null : normalizePhone(request.phone),
          request.isForBusiness === true ? 'BUSINESS' : 'PERSONAL',
        ],
      );
      const leads = await query(
        db,
        sql<{ uuid: string }>(`INSERT INTO leads (portfolio_uuid, facility_uuid, unit_group_uuid, person_uuid, is_for_business, lead_source_uuid,
                            lead_marketing_source_uuid, desired_move_in_date)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING uuid`),
        [
          portfolioUuid,
          facility.uuid,
          unitGroupUuid,
          persons[0].uuid,
          request.isForBusiness === true,
          request.leadSourceUuid?.toLowerCase() ?? null,
          request.leadMarketingSourceUuid?.toLowerCase() ?? null,
          request.desiredMoveInDate ?? null,
        ],
      );
      return { leadUuid: leads[0].uuid };
    });
  }
}

/** Referenced records must exist where they belong; a wrong one is the caller's field error (400). */
async function checkReferences(
  db: EntityManager,
  portfolioUuid: string,
  facilityUuid: string,
  request: CreateLeadRequest,
  unitGroupUuid: string | null,
): Promise<void> {
  const [found] = await query(
    db,
    sql<{
      unitGroup: boolean;
      leadSource: boolean;
      marketingSource: boolean;
    }>(`SELECT ($1::uuid IS NULL OR EXISTS (SELECT 1 FROM unit_groups WHERE uuid = $1 AND facility_uuid = $2)) AS "unitGroup",
            ($3::uuid IS NULL OR EXISTS (SELECT 1 FROM lead_sources WHERE uuid = $3 AND portfolio_uuid = $5)) AS "leadSource",
            ($4::uuid IS NULL OR EXISTS (SELECT 1 FROM lead_marketing_sources WHERE uuid = $4 AND portfolio_uuid = $5)) AS "marketingSource"`),
    [unitGroupUuid, facilityUuid, request.leadSourceUuid?.toLowerCase() ?? null, request.leadMarketingSourceUuid?.toLowerCase() ?? null, portfolioUuid],
  );
  const errors = [
    ...(found.unitGroup ? [] : [{ field: 'unitGroupUuid', message: 'unitGroupUuid is not a unit group of this facility' }]),
    ...(found.leadSource ? [] : [{ field: 'leadSourceUuid', message: 'leadSourceUuid is not a lead source of this portfolio' }]),
    ...(found.marketingSource
      ? []
      : [{ field: 'leadMarketingSourceUuid', message: 'leadMarketingSourceUuid is not a lead marketing source of this portfolio' }]),
  ];
  if (errors.length > 0) throw new InvalidRequestException(errors);
}
