import { Controller, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, CurrentPortfolio, type PortfolioRef } from '../auth';
import { ApiInvalidResponse, JsonStringResponse, UuidPipe } from '../common';
import { LeasesService } from './leases.service';
import { SendLeaseQuery } from './send-lease.dto';

@ApiKeyAuth()
@Controller('api/:portfolio/portfolios/v1')
export class LeasesController {
  constructor(@Inject(LeasesService) private readonly leases: LeasesService) {}

  @Post('facilities/:facilityUuid/leads/:leadUuid/sendLease')
  @HttpCode(200)
  @ApiTags('Leases')
  @ApiOperation({
    operationId: 'sendLease',
    summary: 'Send a lease for signature',
    description:
      'Sends the lead its lease by email or SMS (`contactMethod`, default email): the lead\'s pending lease, or a new one at its unit group\'s current web rate. The link opens the lease page, where signing converts the lead (event `moved-in`). 409 when the lead lacks a name, a unit group or the contact for the method, or its unit group has no vacant unit; `"Lease already signed."` when signed.',
  })
  @JsonStringResponse('The lease was sent, or was already signed.')
  @ApiInvalidResponse()
  @ApiConflictResponse({ description: 'The lead lacks what a lease needs (name, unit group, contact), or its unit group is full.' })
  async sendLease(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('leadUuid', UuidPipe) leadUuid: string,
    @Query() query: SendLeaseQuery,
  ): Promise<string> {
    return JSON.stringify(await this.leases.send(portfolio.uuid, facilityUuid, leadUuid, query.contactMethod ?? 'email'));
  }
}
