import { Body, Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, CurrentPortfolio, type PortfolioRef } from '../auth';
import { FacilityView } from './catalog.dto';
import { CatalogService } from './catalog.service';
import { CreateLeadRequest, CreateLeadResult } from './leads.dto';
import { LeadsService } from './leads.service';
import { CheckPreexistingRequest, CheckPreexistingResult } from './tenant.dto';
import { TenantsService } from './tenants.service';

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
  @ApiOperation({ operationId: 'listFacilities', summary: 'Facilities with their unit groups' })
  @ApiOkResponse({ type: [FacilityView] })
  facilities(@CurrentPortfolio() portfolio: PortfolioRef): Promise<FacilityView[]> {
    return this.catalog.facilities(portfolio.uuid);
  }

  @Post('leads')
  @HttpCode(200)
  @ApiOperation({ operationId: 'createLead', summary: 'Create a lead' })
  @ApiOkResponse({ type: CreateLeadResult })
  createLead(@CurrentPortfolio() portfolio: PortfolioRef, @Body() body: CreateLeadRequest): Promise<CreateLeadResult> {
    return this.leads.create(portfolio.uuid, body);
  }

  @Post('facilities/tenant/check-preexisting')
  @HttpCode(200)
  @ApiOperation({ operationId: 'checkPreexistingTenant', summary: 'Email a verification code to a returning tenant' })
  @ApiOkResponse({ type: CheckPreexistingResult })
  checkPreexisting(@CurrentPortfolio() portfolio: PortfolioRef, @Body() body: CheckPreexistingRequest): Promise<CheckPreexistingResult> {
    return this.tenants.checkPreexisting(portfolio.uuid, body);
  }
}
