import type { EntityManager } from 'typeorm';
import { query, sql } from '@storage/persistence';
import { forgetRentals } from '@storage/rentals';
import { forgetFacilityUnits } from '@storage/unit-occupancy';

const DEMO = sql<{ portfolioUuid: string; facilityUuids: string[] }, [portfolioId: string]>(
  `SELECT p.uuid AS "portfolioUuid", array(SELECT f.uuid FROM facilities f WHERE f.portfolio_uuid = p.uuid) AS "facilityUuids"
     FROM portfolios p WHERE p.portfolio_id = $1`,
);
const DELETE_SHOPPING = sql<never, [portfolioUuid: string, facilityUuids: string[]]>(`WITH leases AS (
    DELETE FROM leases WHERE facility_uuid = ANY($2::uuid[]) OR lead_uuid IN (SELECT uuid FROM leads WHERE portfolio_uuid = $1)
  ), notifications AS (DELETE FROM notifications WHERE portfolio_uuid = $1)
  DELETE FROM leads WHERE portfolio_uuid = $1`);
const DELETE_PERSONS = sql<never, [portfolioUuid: string]>('DELETE FROM persons WHERE portfolio_uuid = $1');
const DELETE_FACILITIES = sql<never, [portfolioUuid: string]>('DELETE FROM facilities WHERE portfolio_uuid = $1');
const DELETE_PORTFOLIO = sql<never, [portfolioUuid: string]>('DELETE FROM portfolios WHERE uuid = $1');

/**
 * Deletes a portfolio and everything in it, each table by its owner, in the caller's transaction (which has said
 * `SET CONSTRAINTS ALL DEFERRED`: the history keys are checked at commit, once the seed has written the demo again).
 * The rentals by `@storage/rentals`, and with them by their foreign keys every part of one (ledger, payments,
 * delinquency state…); the api's shopping rows (leases, notifications, leads, persons; notes and verification
 * codes by their keys); the units and unit groups with their occupancy figures by `@storage/unit-occupancy`; the
 * facilities, whose configuration, delinquency schedule and business-day runs go by their keys; the portfolio, whose
 * catalog goes by its keys. Keys (`api_keys`) and webhook subscriptions name portfolios by id, and stay.
 */
export async function removePortfolio(db: EntityManager, portfolioId: string): Promise<void> {
  const [demo] = await query(db, DEMO, [portfolioId]);
  if (demo === undefined) return;
  const { portfolioUuid, facilityUuids } = demo;
  await forgetRentals(db, portfolioUuid);
  await query(db, DELETE_SHOPPING, [portfolioUuid, facilityUuids]);
  await query(db, DELETE_PERSONS, [portfolioUuid]);
  await forgetFacilityUnits(db, facilityUuids);
  await query(db, DELETE_FACILITIES, [portfolioUuid]);
  await query(db, DELETE_PORTFOLIO, [portfolioUuid]);
}
