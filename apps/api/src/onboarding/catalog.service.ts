import { ConflictException, Injectable } from '@nestjs/common';
import { InvalidRequestException } from '@storage/platform';
import type { EntityManager } from 'typeorm';
import type {
  PortfolioResult,
  PutAmenityRequest,
  PutItemTypeRequest,
  PutLeadSourceRequest,
  PutPortfolioRequest,
  PutRatePlanRequest,
  PutUnitTypeRequest,
  Outcome,
} from './catalog.dto';
import { upsertAmenity, upsertItemType, upsertLeadMarketingSource, upsertLeadSource, upsertRatePlan, upsertUnitType } from './catalog-rows';
import { repriceGroupsOfPlan } from './repricing';
import { recordOutcome } from './upsert';
import { query, sql } from '@storage/persistence';

/**
 * The portfolio and what its facilities share: unit types, amenities, rate plans, item types and lead sources.
 * Every write takes the caller's transaction, so the api and `import` write the same way.
 */
@Injectable()
export class CatalogService {
  /**
   * Keyed by its portfolioId (the natural key clients already use); a new one gets `uuid` when given (an import
   * file's, the demo's), else a database uuid. An existing portfolio keeps its uuid: a file giving it another one, or
   * giving it another portfolio's, is refused (409).
   */
  async putPortfolio(db: EntityManager, portfolioId: string, body: PutPortfolioRequest, uuid?: string): Promise<PortfolioResult> {
    if (uuid !== undefined) await refuseUuidOfAnother(db, portfolioId, uuid);
    const rows = await query(
      db,
      sql<
        { uuid: string; inserted: boolean },
        [string, string, string | null]
      >(`INSERT INTO portfolios AS p (uuid, portfolio_id, name) VALUES (coalesce($3::uuid, gen_random_uuid()), $1, $2)
       ON CONFLICT (portfolio_id) DO UPDATE SET name = EXCLUDED.name WHERE p.name IS DISTINCT FROM EXCLUDED.name
       RETURNING uuid, (xmax = 0) AS inserted`),
      [portfolioId, body.name, uuid ?? null],
    );
    const [written] = rows;
    const storedUuid =
      written?.uuid ?? (await query(db, sql<{ uuid: string }, [string]>('SELECT uuid FROM portfolios WHERE portfolio_id = $1'), [portfolioId]))[0].uuid;
    if (uuid !== undefined && storedUuid !== uuid) throw new ConflictException(`portfolio ${portfolioId}'s uuid is ${storedUuid}, not ${uuid}`);
    const outcome: Outcome = written === undefined ? 'unchanged' : written.inserted ? 'created' : 'updated';
    return { uuid: storedUuid, portfolioId, name: body.name, outcome };
  }

  async putUnitType(db: EntityManager, portfolioUuid: string, uuid: string, body: PutUnitTypeRequest): Promise<Outcome> {
    return recordOutcome('Unit type', uuid, await upsertUnitType(db, portfolioUuid, uuid, { description: body.description }));
  }

  async putAmenity(db: EntityManager, portfolioUuid: string, uuid: string, body: PutAmenityRequest): Promise<Outcome> {
    const row = { description: body.description, isSmartAmenity: body.isSmartAmenity ?? false };
    return recordOutcome('Amenity', uuid, await upsertAmenity(db, portfolioUuid, uuid, row));
  }

  async putLeadSource(db: EntityManager, portfolioUuid: string, uuid: string, body: PutLeadSourceRequest): Promise<Outcome> {
    return recordOutcome('Lead source', uuid, await upsertLeadSource(db, portfolioUuid, uuid, { description: body.description }));
  }

  /** Where a lead heard of the portfolio (Google, a billboard…); no operation writes them yet, imports and the demo do. */
  async putLeadMarketingSource(db: EntityManager, portfolioUuid: string, uuid: string, body: PutLeadSourceRequest): Promise<Outcome> {
    return recordOutcome('Lead marketing source', uuid, await upsertLeadMarketingSource(db, portfolioUuid, uuid, { description: body.description }));
  }

  async putItemType(db: EntityManager, portfolioUuid: string, uuid: string, body: PutItemTypeRequest): Promise<Outcome> {
    const row = { name: body.name, kind: body.kind, priceInPennies: body.priceInPennies, feeType: body.feeType, isRecurring: body.isRecurring ?? false };
    return recordOutcome('Item type', uuid, await upsertItemType(db, portfolioUuid, uuid, row));
  }

  /** A changed plan reprices every unit group on it, as a change of occupancy would. */
  async putRatePlan(db: EntityManager, portfolioUuid: string, uuid: string, body: PutRatePlanRequest): Promise<Outcome> {
    const bands = body.occupancyBands.map(({ minOccupancyPercent, maxOccupancyPercent, streetAdjustmentPercent, webAdjustmentPercent }) => ({
      minOccupancyPercent,
      maxOccupancyPercent,
      streetAdjustmentPercent,
      webAdjustmentPercent,
    }));
    const empty = bands.findIndex((band) => band.minOccupancyPercent >= band.maxOccupancyPercent);
    if (empty !== -1) {
      throw new InvalidRequestException([{ field: `occupancyBands.${empty}.maxOccupancyPercent`, message: 'must be above minOccupancyPercent' }]);
    }
    const outcome = recordOutcome('Rate plan', uuid, await upsertRatePlan(db, portfolioUuid, uuid, { name: body.name, occupancyBands: bands }));
    if (outcome === 'updated') await repriceGroupsOfPlan(db, uuid);
    return outcome;
  }
}

/** A uuid given for a portfolio (by an import file) must not be another portfolio's: refused by name, not by the key's error. */
async function refuseUuidOfAnother(db: EntityManager, portfolioId: string, uuid: string): Promise<void> {
  const [holder] = await query(db, sql<{ portfolioId: string }, [string]>('SELECT portfolio_id AS "portfolioId" FROM portfolios WHERE uuid = $1'), [uuid]);
  if (holder !== undefined && holder.portfolioId !== portfolioId) throw new ConflictException(`uuid ${uuid} is portfolio ${holder.portfolioId}'s`);
}
