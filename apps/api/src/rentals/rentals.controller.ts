import { Body, Controller, Delete, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiKeyAuth, CurrentPortfolio, type PortfolioRef } from '../auth';
import { ApiIdempotencyKey, ApiInvalidResponse, IdempotencyKey, markReplayed, replayedHeaderDoc, UuidPipe } from '../common';
import { MoveOutService } from './use-cases/move-out';
import { PaymentsService } from './use-cases/payment';
import { RentChangeService } from './use-cases/rent-change';
import type { RentalPath } from './rental-lock';
import { RentalServicesService } from './use-cases/services';
import { AddServiceRequest, PaymentRecorded, RecordPaymentRequest, RentalView, RentChangeRequest, TransferRequest, TransferResult } from './rentals.dto';
import { RENTAL_DELINQUENT_PROBLEM, TransferService } from './use-cases/transfer';

const MOVED_OUT = 'The rental has moved out.';

/** Operator actions on a rental (extensions); each writes its change and its event in one transaction. */
@ApiKeyAuth()
@ApiTags('Extensions')
@ApiInvalidResponse()
@Controller('api/:portfolio/portfolios/v1/facilities/:facilityUuid/rentalRecords/:unitRentalRecordUuid')
export class RentalsController {
  constructor(
    @Inject(PaymentsService) private readonly payments: PaymentsService,
    @Inject(MoveOutService) private readonly moveOuts: MoveOutService,
    @Inject(RentChangeService) private readonly rentChanges: RentChangeService,
    @Inject(RentalServicesService) private readonly services: RentalServicesService,
    @Inject(TransferService) private readonly transfers: TransferService,
  ) {}

  @Post('payments')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'recordPayment',
    summary: 'Record a payment against the rental balance (billing fact payment-recorded)',
    description: 'Taken after a move-out too: what a tenant still owes outlives the rental.',
  })
  @ApiIdempotencyKey('payment')
  @ApiOkResponse({
    type: PaymentRecorded,
    headers: replayedHeaderDoc('payment first recorded'),
  })
  @ApiUnprocessableEntityResponse({ description: 'The Idempotency-Key was first used for a different payment (another rental or amount).' })
  async recordPayment(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('unitRentalRecordUuid', UuidPipe) rentalRecordUuid: string,
    @Body() body: RecordPaymentRequest,
    @IdempotencyKey() idempotencyKey: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PaymentRecorded> {
    const { payment, replayed } = await this.payments.record(rentalRef(portfolio, facilityUuid, rentalRecordUuid), body.amountInPennies, idempotencyKey);
    markReplayed(reply, replayed);
    return payment;
  }

  @Post('moveOut')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'moveOut',
    summary: 'Move the tenant out: rental ended, unit freed, gate code revoked (event moved-out)',
    description:
      'Ends the rental today: services and coverage ended, unit vacant, gate code removed; the balance is kept. Emits `moved-out`. 409 when already moved out.',
  })
  @ApiOkResponse({ type: RentalView })
  @ApiConflictResponse({ description: MOVED_OUT })
  moveOut(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('unitRentalRecordUuid', UuidPipe) rentalRecordUuid: string,
  ): Promise<RentalView> {
    return this.moveOuts.moveOut(rentalRef(portfolio, facilityUuid, rentalRecordUuid));
  }

  @Post('rentChange')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'changeRent',
    summary: 'Change the rent (event rent-change)',
    description:
      'Replaces the rent in the billing template now, billed from the first period starting on or after `effectiveDate` (today or later). Emits `rent-change`. 409 when the amount is the same.',
  })
  @ApiOkResponse({ type: RentalView })
  @ApiConflictResponse({ description: 'The rental has moved out, or the rent already has this amount.' })
  changeRent(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('unitRentalRecordUuid', UuidPipe) rentalRecordUuid: string,
    @Body() body: RentChangeRequest,
  ): Promise<RentalView> {
    return this.rentChanges.change(rentalRef(portfolio, facilityUuid, rentalRecordUuid), body.newRentInPennies, body.effectiveDate);
  }

  @Post('services')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'addRentalService',
    summary: 'Add a recurring service (event recurring-service-change)',
    description:
      'Adds a recurring service (an item type of kind SERVICE of the portfolio) to the rental from today. Emits `recurring-service-change`. 409 when the rental has it already.',
  })
  @ApiOkResponse({ type: RentalView })
  @ApiConflictResponse({ description: 'The rental has moved out, or already has this service.' })
  addService(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('unitRentalRecordUuid', UuidPipe) rentalRecordUuid: string,
    @Body() body: AddServiceRequest,
  ): Promise<RentalView> {
    return this.services.add(rentalRef(portfolio, facilityUuid, rentalRecordUuid), body.itemTypeUuid.toLowerCase());
  }

  @Delete('services/:itemTypeUuid')
  @ApiOperation({
    operationId: 'removeRentalService',
    summary: 'Remove a recurring service (event recurring-service-change)',
    description: "Ends the rental's recurring service today. Emits `recurring-service-change`. 404 when the rental does not have it.",
  })
  @ApiOkResponse({ type: RentalView })
  @ApiConflictResponse({ description: MOVED_OUT })
  removeService(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('unitRentalRecordUuid', UuidPipe) rentalRecordUuid: string,
    @Param('itemTypeUuid', UuidPipe) itemTypeUuid: string,
  ): Promise<RentalView> {
    return this.services.remove(rentalRef(portfolio, facilityUuid, rentalRecordUuid), itemTypeUuid);
  }

  @Post('transfer')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'transferRental',
    summary: 'Transfer the tenant to a vacant unit of the facility (event transfer)',
    description:
      "Moves the tenant to a vacant unit of the same facility: a new rental at its group's current web rate keeping the billing cycle, balance, services, coverage, promotions, vehicles and gate code; the old rental is closed. Emits `transfer` (with the new rental). 409 when the unit is occupied or the rental is delinquent.",
  })
  @ApiOkResponse({ type: TransferResult })
  @ApiConflictResponse({
    description:
      'The rental has moved out, or the target unit is not vacant; or the rental is delinquent (its delinquency is OVERDUE, OVERLOCK, ' +
      `LIEN, AUCTION or PAUSED; a balance still within its grace days is no obstacle): then \`type\` is \`${RENTAL_DELINQUENT_PROBLEM}\`, ` +
      'and the transfer is possible once the rental is PAID or WRITTEN_OFF.',
  })
  transfer(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('unitRentalRecordUuid', UuidPipe) rentalRecordUuid: string,
    @Body() body: TransferRequest,
  ): Promise<TransferResult> {
    return this.transfers.transfer(rentalRef(portfolio, facilityUuid, rentalRecordUuid), body.newUnitUuid.toLowerCase());
  }
}

const rentalRef = (portfolio: PortfolioRef, facilityUuid: string, rentalRecordUuid: string): RentalPath => ({
  portfolioUuid: portfolio.uuid,
  portfolioId: portfolio.portfolioId,
  facilityUuid,
  rentalRecordUuid,
});
