import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { NOT_DELINQUENT } from '@storage/domain';
import { query, sql } from '@storage/persistence';
import { ApiKeyAuth, CurrentPortfolio, type PortfolioRef } from '../auth';
import { ApiInvalidResponse, requireFacility, UuidPipe } from '../common';
import { RENTAL_RECORDS_PAGE_LIMIT, RentalRecordsPage, RentalRecordsQuery, type RentalRecordSummary } from './rental-records.dto';

/**
 * A page of the facility's rentals, each filter left out when null. Keyset paging in uuid order: each page starts
 * after the last rental read, so none comes twice while rentals are added.
 */
const RENTAL_RECORDS = sql<RentalRecordSummary, [string, string, string, string | null, string | null, string | null, string | null, number]>(
  `SELECT r.uuid AS "rentalRecordUuid", r.status, r.person_uuid AS "tenantUuid", r.unit_uuid AS "unitUuid",
          r.start_date::text AS "startDate", r.end_date::text AS "endDate", r.rent_in_pennies AS "rentInPennies",
          r.balance_in_pennies AS "balanceInPennies", nullif(d.status::text, $3) AS "delinquencyStatus"
     FROM rental_records r
     LEFT JOIN delinquencies d ON d.rental_record_uuid = r.uuid
    WHERE r.facility_uuid = $1 AND r.portfolio_uuid = $2
      AND ($4::rental_status IS NULL OR r.status = $4::rental_status)
      AND ($5::uuid IS NULL OR r.person_uuid = $5::uuid)
      AND ($6::uuid IS NULL OR r.unit_uuid = $6::uuid)
      AND ($7::uuid IS NULL OR r.uuid > $7::uuid)
    ORDER BY r.uuid
    LIMIT $8`,
);

/** A facility's rentals (extension): how a caller finds the rental the other rental routes act on. */
@ApiKeyAuth()
@ApiTags('Extensions')
@ApiInvalidResponse()
@Controller('api/:portfolio/portfolios/v1/facilities/:facilityUuid/rentalRecords')
export class RentalRecordsController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @Get()
  @ApiOperation({
    operationId: 'listRentalRecords',
    summary: "The facility's rentals, active and moved out, filtered and paged",
    description:
      "The facility's rentals, active and moved out, in uuid order, with status, tenant, unit, dates, rent, balance and delinquency status. Filters by status, tenant and unit; pages of `limit` after `after` (`nextPageAfter` is null on the last page).",
  })
  @ApiOkResponse({ type: RentalRecordsPage })
  async list(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Query() filter: RentalRecordsQuery,
  ): Promise<RentalRecordsPage> {
    const limit = Number(filter.limit ?? RENTAL_RECORDS_PAGE_LIMIT.default);
    // One row past the page tells whether another page follows.
    const rows = await query(this.dataSource, RENTAL_RECORDS, [
      facilityUuid,
      portfolio.uuid,
      NOT_DELINQUENT,
      filter.status ?? null,
      filter.tenantUuid?.toLowerCase() ?? null,
      filter.unitUuid?.toLowerCase() ?? null,
      filter.after?.toLowerCase() ?? null,
      limit + 1,
    ]);
    // Only an empty page may be of a facility outside the portfolio: a rental found is the facility's proof.
    if (rows.length === 0) await requireFacility(this.dataSource.manager, portfolio.uuid, facilityUuid);
    const rentalRecords = rows.slice(0, limit);
    return { rentalRecords, nextPageAfter: rows.length > limit ? rentalRecords[limit - 1].rentalRecordUuid : null };
  }
}
