import { Body, Controller, Get, HttpCode, Inject, Post, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse, type LinkObject } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiKeyAuth, CurrentPortfolio, type PortfolioRef } from '../auth';
import { ApiIdempotencyKey, IdempotencyKey, markReplayed, replayedHeaderDoc } from '../common';
import { RateLimitClass } from '../rate-limit';
import { FacilityView } from './catalog.dto';
import { CatalogService } from './catalog.service';
import { CreateLeadRequest, CreateLeadResult } from './leads.dto';
import { LeadsService } from './leads.service';
import { CheckPreexistingRequest, CheckPreexistingResult } from './tenant.dto';
import { TenantsService } from './tenants.service';

/** What a new lead leads to: its notes, its lease (at the facility it named) and the messages sent about it. */
const LEAD_LINKS: Record<string, LinkObject> = {
  CreateNote: { operationId: 'createLeadNote', parameters: { portfolio: '$request.path.portfolio', leadUuid: '$response.body#/leadUuid' } },
  SendLease: {
    operationId: 'sendLease',
    parameters: { portfolio: '$request.path.portfolio', facilityUuid: '$request.body#/facilityUuid', leadUuid: '$response.body#/leadUuid' },
  },
  ListNotifications: { operationId: 'Notifications_list', parameters: { portfolio: '$request.path.portfolio', leadUuid: '$response.body#/leadUuid' } },
};

/** Shopping operations beyond the published interface (ARCHITECTURE.md "Extension operations"). */
@ApiTags('Extensions')
@ApiKeyAuth()
@Controller('shopping/:portfolio/v1')
export class ShoppingExtensionsController {
  constructor(
    @Inject(CatalogService) private readonly catalog: CatalogService,
    @Inject(LeadsService) private readonly leads: LeadsService,
    @Inject(TenantsService) private readonly tenants: TenantsService,
  ) {}

  @Get('facilities')
  @ApiOperation({
    operationId: 'listFacilities',
    summary: 'Facilities with their unit groups',
    description: "The portfolio's facilities, each with its address and its size-and-type unit groups, for a shopping front to list.",
  })
  @ApiOkResponse({ type: [FacilityView] })
  facilities(@CurrentPortfolio() portfolio: PortfolioRef): Promise<FacilityView[]> {
    return this.catalog.facilities(portfolio.uuid);
  }

  @Post('leads')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'createLead',
    summary: 'Create a lead',
    description:
      'Creates an `OPEN` lead for the shopper (operation 13 then sends its lease). With an `Idempotency-Key`, a retry answers the lead first created (header `Idempotent-Replayed: true`) instead of creating another.',
  })
  @ApiIdempotencyKey('lead')
  @ApiOkResponse({
    type: CreateLeadResult,
    links: LEAD_LINKS,
    headers: replayedHeaderDoc('lead first created'),
  })
  @ApiUnprocessableEntityResponse({ description: 'The Idempotency-Key was first used for a different lead.' })
  async createLead(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Body() body: CreateLeadRequest,
    @IdempotencyKey() idempotencyKey: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CreateLeadResult> {
    const { lead, replayed } = await this.leads.create(portfolio.uuid, body, idempotencyKey);
    markReplayed(reply, replayed);
    return lead;
  }

  @Post('facilities/tenant/check-preexisting')
  @HttpCode(200)
  @RateLimitClass('verification')
  @ApiOperation({
    operationId: 'checkPreexistingTenant',
    summary: 'Email a verification code to a returning tenant',
    description:
      'Emails a 6-digit verification code to a person of the portfolio who has rented before; operation 2 checks it. The code is valid 15 minutes, single use, and dead after 5 wrong guesses; codes and tries per person are rate limited (429).',
  })
  @ApiOkResponse({ type: CheckPreexistingResult })
  checkPreexisting(@CurrentPortfolio() portfolio: PortfolioRef, @Body() body: CheckPreexistingRequest): Promise<CheckPreexistingResult> {
    return this.tenants.checkPreexisting(portfolio.uuid, body);
  }
}
