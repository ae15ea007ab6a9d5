import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, CurrentPortfolio, ReadOperation, type PortfolioRef } from '../auth';
import { ApiInvalidResponse, PrebuiltJson, UuidPipe } from '../common';
import { RateLimitClass } from '../rate-limit';
import { CatalogService } from './catalog.service';
import { CoverageOption, LeadSourceView } from './catalog.dto';
import { EligibleAutoAppliedPromotionsByGroup, EligiblePromotionsRequest } from './promotions.dto';
import { PromotionsService } from './promotions.service';
import { ConvertedLeadDetails, PreexistingTenantValidation, ValidatePreexistingRequest } from './tenant.dto';
import { TenantsService } from './tenants.service';

/** The published shopping operations 1 to 5. */
@ApiKeyAuth()
@Controller('shopping/:portfolio/v1')
export class ShoppingController {
  constructor(
    @Inject(PromotionsService) private readonly promotions: PromotionsService,
    @Inject(TenantsService) private readonly tenants: TenantsService,
    @Inject(CatalogService) private readonly catalog: CatalogService,
  ) {}

  @Post('promotions/eligible-auto-applied-promotions-with-highest-discount')
  @HttpCode(200)
  @ReadOperation()
  @ApiTags('Promotions')
  @ApiOperation({
    operationId: 'eligibleAutoAppliedPromotionsWithHighestDiscount',
    summary: 'Best auto-applied promotions per unit group',
    description:
      'For each unit group asked for, the auto-applied promotions the shopper is eligible for that give the highest discount (the ones the lease would apply). Reads only: a read key may call it.',
  })
  @ApiOkResponse({ type: [EligibleAutoAppliedPromotionsByGroup] })
  eligiblePromotions(@CurrentPortfolio() portfolio: PortfolioRef, @Body() body: EligiblePromotionsRequest): Promise<EligibleAutoAppliedPromotionsByGroup[]> {
    return this.promotions.eligible(portfolio.uuid, body);
  }

  @Post('facilities/tenant/validate-preexisting')
  @HttpCode(200)
  @RateLimitClass('verification')
  @ApiTags('Tenants')
  @ApiOperation({
    operationId: 'validatePreexistingTenant',
    summary: 'Validate a pre-existing tenant',
    description:
      'Checks the verification code sent by `check-preexisting`. A valid code creates an `OPEN` lead for that person and answers its `verifyToken`; `personalInfo` and `createdLead` are `null` unless `valid`. Rate limited per person (429).',
  })
  @ApiOkResponse({ type: PreexistingTenantValidation })
  validatePreexisting(@CurrentPortfolio() portfolio: PortfolioRef, @Body() body: ValidatePreexistingRequest): Promise<PreexistingTenantValidation> {
    return this.tenants.validatePreexisting(portfolio.uuid, body);
  }

  @Get('facilities/tenant/:leadUuid')
  @ApiTags('Leads')
  @ApiOperation({
    operationId: 'getConvertedLeadDetails',
    summary: 'Details of a converted lead',
    description:
      'Once the lead has signed its lease (status `CONVERTED`): its rental (`unitRentalRecordUuid`), unit, unit type, gate code as operation 14 shows it, facility, and what signing charged. 404 until the lead is converted.',
  })
  @ApiOkResponse({ type: ConvertedLeadDetails })
  @ApiInvalidResponse()
  convertedLead(@CurrentPortfolio() portfolio: PortfolioRef, @Param('leadUuid', UuidPipe) leadUuid: string): Promise<ConvertedLeadDetails> {
    return this.tenants.convertedLead(portfolio.uuid, leadUuid);
  }

  @Get('coverages/:facilityUuid')
  @PrebuiltJson()
  @ApiTags('Coverages')
  @ApiOperation({
    operationId: 'getFacilityCoverages',
    summary: 'Coverage options of a facility',
    description: 'The coverage (tenant protection) options offered at the facility, with their premiums.',
  })
  @ApiOkResponse({ type: [CoverageOption] })
  @ApiInvalidResponse()
  coverages(@CurrentPortfolio() portfolio: PortfolioRef, @Param('facilityUuid', UuidPipe) facilityUuid: string): Promise<string> {
    return this.catalog.coveragesJson(portfolio.uuid, facilityUuid);
  }

  @Get('lead-sources')
  @ApiTags('Lead Sources')
  @ApiOperation({
    operationId: 'getLeadSources',
    summary: 'Lead sources of the portfolio',
    description: 'The lead sources of the portfolio, to say where a lead came from when creating it.',
  })
  @ApiOkResponse({ type: [LeadSourceView] })
  leadSources(@CurrentPortfolio() portfolio: PortfolioRef): Promise<LeadSourceView[]> {
    return this.catalog.leadSources(portfolio.uuid);
  }
}
