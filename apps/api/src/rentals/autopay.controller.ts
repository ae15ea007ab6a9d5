import { Body, Controller, Delete, Inject, Param, Put } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, CurrentPortfolio, type PortfolioRef } from '../auth';
import { ApiInvalidResponse, UuidPipe } from '../common';
import { AutopayView, EnableAutopayRequest } from './autopay.dto';
import { AutopayService } from './autopay.service';

const MOVED_OUT = 'The rental has moved out.';

/** A rental's autopay (extension): the method the business day charges on each due date. */
@ApiKeyAuth()
@ApiTags('Extensions')
@ApiInvalidResponse()
@Controller('api/:portfolio/portfolios/v1/facilities/:facilityUuid/rentalRecords/:unitRentalRecordUuid/autopay')
export class AutopayController {
  constructor(@Inject(AutopayService) private readonly autopay: AutopayService) {}

  @Put()
  @ApiOperation({
    operationId: 'enableAutopay',
    summary: 'Enable autopay with a payment method, or replace its method: charged what is owed on each due date (payment-recorded or payment-declined)',
    description:
      "Stores the payment processor's token of the tenant's payment method (`pm_…`, never card details). On each due date the scheduler charges what is owed: an approved charge is recorded as a payment (`payment-recorded`), a refused one emits `payment-declined`. Emits no lifecycle event.",
  })
  @ApiOkResponse({ type: AutopayView })
  @ApiConflictResponse({ description: MOVED_OUT })
  enable(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('unitRentalRecordUuid', UuidPipe) rentalRecordUuid: string,
    @Body() body: EnableAutopayRequest,
  ): Promise<AutopayView> {
    return this.autopay.set({ portfolioUuid: portfolio.uuid, portfolioId: portfolio.portfolioId, facilityUuid, rentalRecordUuid }, body.paymentMethod);
  }

  @Delete()
  @ApiOperation({
    operationId: 'disableAutopay',
    summary: 'Disable autopay (nothing changes when it is off)',
    description: 'Turns autopay off; calling it again changes nothing. Emits no event.',
  })
  @ApiOkResponse({ type: AutopayView })
  @ApiConflictResponse({ description: MOVED_OUT })
  disable(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('unitRentalRecordUuid', UuidPipe) rentalRecordUuid: string,
  ): Promise<AutopayView> {
    return this.autopay.set({ portfolioUuid: portfolio.uuid, portfolioId: portfolio.portfolioId, facilityUuid, rentalRecordUuid }, null);
  }
}
