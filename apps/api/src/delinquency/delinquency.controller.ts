import { Body, Controller, Get, HttpCode, Inject, Param, Patch, Post, UseInterceptors } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { AuctionService, DelinquencyService, facilitySchedule } from '@storage/delinquency';
import type { RentalRef } from '@storage/rentals';
import { ApiKeyAuth, CurrentPortfolio, type PortfolioRef } from '../auth';
import { ApiInvalidResponse, requireFacility, UuidPipe } from '../common';
import { DelinquencyErrorsInterceptor } from './delinquency-errors.interceptor';
import { AuctionView, CompleteAuctionRequest, DelinquencyScheduleView, DelinquencyView, ScheduleAuctionRequest, UpdateAuctionRequest } from './delinquency.dto';

const RENTAL = 'facilities/:facilityUuid/rentalRecords/:unitRentalRecordUuid';
/** Every action on a rental; reading the schedule cannot conflict. */
const refusedByState = ApiConflictResponse({ description: 'The rental’s delinquency or auction does not allow it.' });

/** Operator actions on delinquency and auctions, and the facility schedule (ARCHITECTURE.md "Extension operations"). */
@ApiTags('Extensions')
@ApiKeyAuth()
@ApiInvalidResponse()
@UseInterceptors(DelinquencyErrorsInterceptor)
@Controller('api/:portfolio/portfolios/v1')
export class DelinquencyController {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(DelinquencyService) private readonly delinquency: DelinquencyService,
    @Inject(AuctionService) private readonly auctions: AuctionService,
  ) {}

  @Get('facilities/:facilityUuid/delinquencySchedule')
  @ApiOperation({
    operationId: 'getDelinquencySchedule',
    summary: 'The facility’s delinquency schedule (defaults when it has none)',
    description:
      "The facility's grace days, the days overdue at which a rental reaches overlock, lien and auction, and its late fee; the defaults when the facility has none.",
  })
  @ApiOkResponse({ type: DelinquencyScheduleView })
  async schedule(@CurrentPortfolio() portfolio: PortfolioRef, @Param('facilityUuid', UuidPipe) facilityUuid: string): Promise<DelinquencyScheduleView> {
    await requireFacility(this.dataSource.manager, portfolio.uuid, facilityUuid);
    const { schedule, isDefault } = await facilitySchedule(this.dataSource, facilityUuid);
    return { facilityUuid, ...schedule, isDefault };
  }

  @Post(`${RENTAL}/delinquency/pause`)
  @HttpCode(200)
  @ApiOperation({
    operationId: 'pauseDelinquency',
    summary: 'Pause delinquency progression',
    description: "Halts the rental's delinquency progression until resumed (status `PAUSED`). Emits `delinquency-status-change`.",
  })
  @ApiOkResponse({ type: DelinquencyView })
  @refusedByState
  pause(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('unitRentalRecordUuid', UuidPipe) rentalRecordUuid: string,
  ): Promise<DelinquencyView> {
    return this.delinquency.pause(ref(portfolio, facilityUuid, rentalRecordUuid));
  }

  @Post(`${RENTAL}/delinquency/resume`)
  @HttpCode(200)
  @ApiOperation({
    operationId: 'resumeDelinquency',
    summary: 'Resume a paused delinquency; paused days do not count',
    description:
      'Returns the rental to the status it held before the pause; the paused days do not count towards the next stage. Emits `delinquency-status-change`.',
  })
  @ApiOkResponse({ type: DelinquencyView })
  @refusedByState
  resume(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('unitRentalRecordUuid', UuidPipe) rentalRecordUuid: string,
  ): Promise<DelinquencyView> {
    return this.delinquency.resume(ref(portfolio, facilityUuid, rentalRecordUuid));
  }

  @Post(`${RENTAL}/delinquency/writeOff`)
  @HttpCode(200)
  @ApiOperation({
    operationId: 'writeOffDelinquency',
    summary: 'Write off the debt (final)',
    description:
      'Gives up the debt: the balance goes to zero, a pending auction is canceled, and the status becomes `WRITTEN_OFF` (final). Emits `delinquency-status-change`.',
  })
  @ApiOkResponse({ type: DelinquencyView })
  @refusedByState
  writeOff(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('unitRentalRecordUuid', UuidPipe) rentalRecordUuid: string,
  ): Promise<DelinquencyView> {
    return this.delinquency.writeOff(ref(portfolio, facilityUuid, rentalRecordUuid));
  }

  @Post(`${RENTAL}/auction/schedule`)
  @HttpCode(200)
  @ApiOperation({
    operationId: 'scheduleAuction',
    summary: 'Schedule the auction of a rental in AUCTION',
    description:
      'Sets the sale date (and optionally the end date) of the auction of a rental in `AUCTION`, a new auction when the last one was canceled; the auction is then `SCHEDULED`. Emits `auction`.',
  })
  @ApiOkResponse({ type: AuctionView })
  @refusedByState
  scheduleAuction(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('unitRentalRecordUuid', UuidPipe) rentalRecordUuid: string,
    @Body() body: ScheduleAuctionRequest,
  ): Promise<AuctionView> {
    return this.auctions.schedule(ref(portfolio, facilityUuid, rentalRecordUuid), body);
  }

  @Patch(`${RENTAL}/auction`)
  @ApiOperation({
    operationId: 'updateAuction',
    summary: 'Change the dates or minimum bid of the pending auction',
    description: 'Changes the dates or the minimum bid of the pending auction; its stage stays. Emits `auction`.',
  })
  @ApiOkResponse({ type: AuctionView })
  @refusedByState
  updateAuction(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('unitRentalRecordUuid', UuidPipe) rentalRecordUuid: string,
    @Body() body: UpdateAuctionRequest,
  ): Promise<AuctionView> {
    return this.auctions.update(ref(portfolio, facilityUuid, rentalRecordUuid), body);
  }

  @Post(`${RENTAL}/auction/cancel`)
  @HttpCode(200)
  @ApiOperation({
    operationId: 'cancelAuction',
    summary: 'Cancel the pending auction',
    description: 'Cancels the pending auction; the rental stays in `AUCTION` until paid, written off or scheduled again. Emits `auction`.',
  })
  @ApiOkResponse({ type: AuctionView })
  @refusedByState
  cancelAuction(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('unitRentalRecordUuid', UuidPipe) rentalRecordUuid: string,
  ): Promise<AuctionView> {
    return this.auctions.cancel(ref(portfolio, facilityUuid, rentalRecordUuid));
  }

  @Post(`${RENTAL}/auction/complete`)
  @HttpCode(200)
  @ApiOperation({
    operationId: 'completeAuction',
    summary: 'Record the sale: the tenant is moved out and the rest of the debt written off',
    description:
      'Records the sale: the winning bid pays what it can, the rest is written off (`WRITTEN_OFF`), and the tenant is moved out as by `moveOut`. Emits `auction`, `delinquency-status-change` and `moved-out`, in that order.',
  })
  @ApiOkResponse({ type: AuctionView })
  @refusedByState
  completeAuction(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('unitRentalRecordUuid', UuidPipe) rentalRecordUuid: string,
    @Body() body: CompleteAuctionRequest,
  ): Promise<AuctionView> {
    return this.auctions.complete(ref(portfolio, facilityUuid, rentalRecordUuid), body.winningBidInPennies);
  }
}

function ref(portfolio: PortfolioRef, facilityUuid: string, rentalRecordUuid: string): RentalRef {
  return { rentalRecordUuid, facilityUuid, portfolioUuid: portfolio.uuid };
}
