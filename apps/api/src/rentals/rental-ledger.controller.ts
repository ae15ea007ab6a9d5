import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { query, sql } from '@storage/persistence';
import { ledgerPage } from '@storage/rental-ledger';
import { ApiKeyAuth, CurrentPortfolio, type PortfolioRef } from '../auth';
import { ApiInvalidResponse, notFound, UuidPipe } from '../common';
import { LEDGER_PAGE_LIMIT, LedgerQuery, RentalLedgerView } from './rental-ledger.dto';

const RENTAL_BALANCE = sql<{ balanceInPennies: number; nextDueDate: string }, [string, string, string]>(
  `SELECT balance_in_pennies AS "balanceInPennies", next_due_date::text AS "nextDueDate" FROM rental_records
          WHERE uuid = $1 AND facility_uuid = $2 AND portfolio_uuid = $3`,
);

/** A rental's ledger (extension): every charge, credit and payment, with the balance each left. */
@ApiKeyAuth()
@ApiTags('Extensions')
@ApiInvalidResponse()
@Controller('api/:portfolio/portfolios/v1/facilities/:facilityUuid/rentalRecords/:unitRentalRecordUuid/ledger')
export class RentalLedgerController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @Get()
  @ApiOperation({
    operationId: 'getRentalLedger',
    summary: "The rental's ledger, oldest entry first, paged",
    description:
      "The rental's ledger entries, oldest first (charges positive, credits negative, each with the balance after it), with the balance and next due date; pages of `limit` after the `position` given as `after`.",
  })
  @ApiOkResponse({ type: RentalLedgerView })
  async ledger(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('unitRentalRecordUuid', UuidPipe) rentalRecordUuid: string,
    @Query() ledgerQuery: LedgerQuery,
  ): Promise<RentalLedgerView> {
    // One snapshot for the rental and its entries, so the balance agrees with them.
    return this.dataSource.transaction('REPEATABLE READ', async (db) => {
      const [rental] = await query(db, RENTAL_BALANCE, [rentalRecordUuid, facilityUuid, portfolio.uuid]);
      if (rental === undefined) throw notFound('Rental record', rentalRecordUuid);
      const limit = Number(ledgerQuery.limit ?? LEDGER_PAGE_LIMIT.default);
      const page = await ledgerPage(db, rentalRecordUuid, { after: ledgerQuery.after ?? '0', limit });
      return {
        rentalRecordUuid,
        ...rental,
        entries: page.entries.map((entry) => ({
          entryUuid: entry.entryUuid,
          position: entry.position,
          kind: entry.kind,
          description: entry.description,
          amountInPennies: entry.amountInPennies,
          postedOn: entry.postedOn,
          dueOn: entry.dueOn,
          servicePeriod: entry.periodFrom && entry.periodTo ? { from: entry.periodFrom, to: entry.periodTo } : null,
          appliesToEntryUuid: entry.appliesTo,
          itemTypeUuid: entry.itemTypeUuid,
          promotionUuid: entry.promotionUuid,
          paymentUuid: entry.paymentUuid,
          balanceAfterInPennies: entry.balanceAfterInPennies,
        })),
        nextPageAfter: page.more ? (page.entries.at(-1)?.position ?? null) : null,
      };
    });
  }
}
