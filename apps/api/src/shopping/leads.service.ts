import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable, UnprocessableEntityException } from '@nestjs/common';
import { normalizePhone } from '@storage/domain';
import { query, sql, uniqueViolation } from '@storage/persistence';
import { InvalidRequestException } from '@storage/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { keyedUuid, requireFacility } from '../common';
import type { CreateLeadRequest, CreateLeadResult } from './leads.dto';

/** A lead created, or, for a retry under its Idempotency-Key, the one the first request created. */
export interface LeadAnswer {
  lead: CreateLeadResult;
  replayed: boolean;
}

/** The request as stored: trimmed, uuids and email lowercased, phone normalized; its fingerprint is of this. */
interface LeadToCreate {
  facilityUuid: string;
  unitGroupUuid: string | null;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  isForBusiness: boolean;
  leadSourceUuid: string | null;
  leadMarketingSourceUuid: string | null;
  desiredMoveInDate: string | null;
}

const EARLIER_LEAD = sql<{ request_fingerprint: string | null }, [leadUuid: string]>('SELECT request_fingerprint FROM leads WHERE uuid = $1');
const INSERT_PERSON = sql<{ uuid: string }, [string, string, string, string | null, string | null, string]>(
  `INSERT INTO persons (portfolio_uuid, first_name, last_name, email, phone, account_type) VALUES ($1, $2, $3, $4, $5, $6) RETURNING uuid`,
);
const INSERT_LEAD = sql<
  never,
  [string, string, string, string | null, string, boolean, string | null, string | null, string | null, string | null]
>(`INSERT INTO leads (uuid, portfolio_uuid, facility_uuid, unit_group_uuid, person_uuid, is_for_business, lead_source_uuid,
                      lead_marketing_source_uuid, desired_move_in_date, request_fingerprint)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`);

/** Lead creation (shopping extension): a person for the prospect, and the lead pointing at them. */
@Injectable()
export class LeadsService {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /**
   * Creates the lead; with an idempotency key, only once: the lead's uuid is the key's (within the portfolio), so a
   * retry finds the lead its first try created and answers it. Copies sent together all insert that uuid: the first
   * to commit wins, and the others, refused by the primary key, look again and find it.
   */
  async create(portfolioUuid: string, request: CreateLeadRequest, idempotencyKey?: string): Promise<LeadAnswer> {
    const lead = leadToCreate(request);
    if (idempotencyKey === undefined) return this.dataSource.transaction((db) => this.insert(db, portfolioUuid, lead, randomUUID(), null));
    const leadUuid = keyedUuid('lead', portfolioUuid, idempotencyKey);
    const fingerprint = createHash('sha256').update(JSON.stringify(lead)).digest('base64url');
    const once = () =>
      this.dataSource.transaction(async (db) => {
        const [earlier] = await query(db, EARLIER_LEAD, [leadUuid]);
        if (earlier === undefined) return this.insert(db, portfolioUuid, lead, leadUuid, fingerprint);
        if (earlier.request_fingerprint !== fingerprint) {
          throw new UnprocessableEntityException('This Idempotency-Key was first used for a different lead; a different lead needs a key of its own.');
        }
        return { lead: { leadUuid }, replayed: true };
      });
    try {
      return await once();
    } catch (error) {
      if (uniqueViolation(error)?.table !== 'leads') throw error;
      return once();
    }
  }

  private async insert(db: EntityManager, portfolioUuid: string, lead: LeadToCreate, leadUuid: string, fingerprint: string | null): Promise<LeadAnswer> {
    const facility = await requireFacility(db, portfolioUuid, lead.facilityUuid);
    await checkReferences(db, portfolioUuid, facility.uuid, lead);
    const [person] = await query(db, INSERT_PERSON, [
      portfolioUuid,
      lead.firstName,
      lead.lastName,
      lead.email,
      lead.phone,
      lead.isForBusiness ? 'BUSINESS' : 'PERSONAL',
    ]);
    await query(db, INSERT_LEAD, [
      leadUuid,
      portfolioUuid,
      facility.uuid,
      lead.unitGroupUuid,
      person.uuid,
      lead.isForBusiness,
      lead.leadSourceUuid,
      lead.leadMarketingSourceUuid,
      lead.desiredMoveInDate,
      fingerprint,
    ]);
    return { lead: { leadUuid }, replayed: false };
  }
}

function leadToCreate(request: CreateLeadRequest): LeadToCreate {
  return {
    facilityUuid: request.facilityUuid.toLowerCase(),
    unitGroupUuid: request.unitGroupUuid?.toLowerCase() ?? null,
    firstName: request.firstName.trim(),
    lastName: request.lastName.trim(),
    email: request.email?.trim().toLowerCase() ?? null,
    phone: request.phone === undefined ? null : normalizePhone(request.phone),
    isForBusiness: request.isForBusiness === true,
    leadSourceUuid: request.leadSourceUuid?.toLowerCase() ?? null,
    leadMarketingSourceUuid: request.leadMarketingSourceUuid?.toLowerCase() ?? null,
    desiredMoveInDate: request.desiredMoveInDate ?? null,
  };
}

/** Referenced records must exist where they belong; a wrong one is the caller's field error (400). */
async function checkReferences(db: EntityManager, portfolioUuid: string, facilityUuid: string, lead: LeadToCreate): Promise<void> {
  const [found] = await query(
    db,
    sql<
      {
        unitGroup: boolean;
        leadSource: boolean;
        marketingSource: boolean;
      },
      [string | null, string, string | null, string | null, string]
    >(`SELECT ($1::uuid IS NULL OR EXISTS (SELECT 1 FROM unit_groups WHERE uuid = $1 AND facility_uuid = $2)) AS "unitGroup",
            ($3::uuid IS NULL OR EXISTS (SELECT 1 FROM lead_sources WHERE uuid = $3 AND portfolio_uuid = $5)) AS "leadSource",
            ($4::uuid IS NULL OR EXISTS (SELECT 1 FROM lead_marketing_sources WHERE uuid = $4 AND portfolio_uuid = $5)) AS "marketingSource"`),
    [lead.unitGroupUuid, facilityUuid, lead.leadSourceUuid, lead.leadMarketingSourceUuid, portfolioUuid],
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
