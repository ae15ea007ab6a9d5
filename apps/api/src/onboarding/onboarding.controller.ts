import { Body, Controller, Inject, Param, Put } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { ApiKeyAuth, CurrentPortfolio, type PortfolioRef } from '../auth';
import { ApiInvalidResponse, UuidPipe } from '../common';
import { RecordUuidPipe } from '../common/uuid';
import { CatalogService } from './catalog.service';
import { PutAmenityRequest, PutItemTypeRequest, PutLeadSourceRequest, PutRatePlanRequest, PutResult, PutUnitTypeRequest } from './catalog.dto';
import {
  DelinquencyScheduleResult,
  PutCoverageRequest,
  PutDelinquencyScheduleRequest,
  PutFacilityRequest,
  PutPromotionRequest,
  PutSizeAndTypeGroupRequest,
  PutUnitGroupRequest,
  PutUnitRequest,
  UnitGroupResult,
} from './facility.dto';
import { FacilitySetupService } from './facility-setup.service';

const FACILITY = 'facilities/:facilityUuid';
const IDEMPOTENT =
  'Creates the record under the uuid of the path (chosen by the caller, so a retry finds it; any UUID but the nil one) or replaces it; `outcome` says which, `unchanged` for a retry.';
const uuidTaken = ApiConflictResponse({
  description: 'The uuid is already used by a record of another portfolio or facility, or a rule of the record refuses the change.',
});

/**
 * Onboarding (issue 16): a portfolio's facilities and catalogue, written by idempotent PUTs with caller-chosen
 * uuids. A reference in a body to a record the portfolio does not have is 400 naming the field. No event is
 * emitted: the published events are about rentals, which onboarding does not touch.
 */
@ApiTags('Extensions')
@ApiKeyAuth()
@ApiInvalidResponse()
@Controller('api/:portfolio/portfolios/v1')
export class OnboardingController {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(CatalogService) private readonly catalog: CatalogService,
    @Inject(FacilitySetupService) private readonly facilities: FacilitySetupService,
  ) {}

  @Put('unitTypes/:unitTypeUuid')
  @ApiOperation({ operationId: 'putUnitType', summary: 'Create or replace a unit type', description: IDEMPOTENT })
  @ApiOkResponse({ type: PutResult })
  @uuidTaken
  async putUnitType(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('unitTypeUuid', RecordUuidPipe) uuid: string,
    @Body() body: PutUnitTypeRequest,
  ): Promise<PutResult> {
    return { uuid, outcome: await this.dataSource.transaction((db) => this.catalog.putUnitType(db, portfolio.uuid, uuid, body)) };
  }

  @Put('amenities/:amenityUuid')
  @ApiOperation({ operationId: 'putAmenity', summary: 'Create or replace an amenity', description: IDEMPOTENT })
  @ApiOkResponse({ type: PutResult })
  @uuidTaken
  async putAmenity(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('amenityUuid', RecordUuidPipe) uuid: string,
    @Body() body: PutAmenityRequest,
  ): Promise<PutResult> {
    return { uuid, outcome: await this.dataSource.transaction((db) => this.catalog.putAmenity(db, portfolio.uuid, uuid, body)) };
  }

  @Put('ratePlans/:ratePlanUuid')
  @ApiOperation({ operationId: 'putRatePlan', summary: 'Create or replace a rate plan (its unit groups are repriced)', description: IDEMPOTENT })
  @ApiOkResponse({ type: PutResult })
  @uuidTaken
  async putRatePlan(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('ratePlanUuid', RecordUuidPipe) uuid: string,
    @Body() body: PutRatePlanRequest,
  ): Promise<PutResult> {
    return { uuid, outcome: await this.dataSource.transaction((db) => this.catalog.putRatePlan(db, portfolio.uuid, uuid, body)) };
  }

  @Put('itemTypes/:itemTypeUuid')
  @ApiOperation({ operationId: 'putItemType', summary: 'Create or replace an item type (service, fee or coverage premium)', description: IDEMPOTENT })
  @ApiOkResponse({ type: PutResult })
  @uuidTaken
  async putItemType(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('itemTypeUuid', RecordUuidPipe) uuid: string,
    @Body() body: PutItemTypeRequest,
  ): Promise<PutResult> {
    return { uuid, outcome: await this.dataSource.transaction((db) => this.catalog.putItemType(db, portfolio.uuid, uuid, body)) };
  }

  @Put('leadSources/:leadSourceUuid')
  @ApiOperation({ operationId: 'putLeadSource', summary: 'Create or replace a lead source', description: IDEMPOTENT })
  @ApiOkResponse({ type: PutResult })
  @uuidTaken
  async putLeadSource(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('leadSourceUuid', RecordUuidPipe) uuid: string,
    @Body() body: PutLeadSourceRequest,
  ): Promise<PutResult> {
    return { uuid, outcome: await this.dataSource.transaction((db) => this.catalog.putLeadSource(db, portfolio.uuid, uuid, body)) };
  }

  @Put(FACILITY)
  @ApiOperation({ operationId: 'putFacility', summary: 'Create or replace a facility (address, phone, hours, time zone)', description: IDEMPOTENT })
  @ApiOkResponse({ type: PutResult })
  @uuidTaken
  async putFacility(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', RecordUuidPipe) uuid: string,
    @Body() body: PutFacilityRequest,
  ): Promise<PutResult> {
    return { uuid, outcome: await this.dataSource.transaction((db) => this.facilities.putFacility(db, portfolio.uuid, uuid, body)) };
  }

  @Put(`${FACILITY}/sizeAndTypeGroups/:sizeAndTypeGroupUuid`)
  @ApiOperation({ operationId: 'putSizeAndTypeGroup', summary: 'Create or replace a size-and-type group of the facility', description: IDEMPOTENT })
  @ApiOkResponse({ type: PutResult })
  @uuidTaken
  async putSizeAndTypeGroup(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('sizeAndTypeGroupUuid', RecordUuidPipe) uuid: string,
    @Body() body: PutSizeAndTypeGroupRequest,
  ): Promise<PutResult> {
    const scope = { portfolioUuid: portfolio.uuid, facilityUuid };
    return { uuid, outcome: await this.dataSource.transaction((db) => this.facilities.putSizeAndTypeGroup(db, scope, uuid, body)) };
  }

  @Put(`${FACILITY}/unitGroups/:unitGroupUuid`)
  @ApiOperation({
    operationId: 'putUnitGroup',
    summary: 'Create or replace a unit group of the facility, with its amenities; answers its current rates',
    description: IDEMPOTENT,
  })
  @ApiOkResponse({ type: UnitGroupResult })
  @uuidTaken
  async putUnitGroup(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('unitGroupUuid', RecordUuidPipe) uuid: string,
    @Body() body: PutUnitGroupRequest,
  ): Promise<UnitGroupResult> {
    const scope = { portfolioUuid: portfolio.uuid, facilityUuid };
    return { uuid, ...(await this.dataSource.transaction((db) => this.facilities.putUnitGroup(db, scope, uuid, body))) };
  }

  @Put(`${FACILITY}/units/:unitUuid`)
  @ApiOperation({ operationId: 'putUnit', summary: 'Create (vacant) or replace a unit of the facility', description: IDEMPOTENT })
  @ApiOkResponse({ type: PutResult })
  @ApiConflictResponse({ description: 'The uuid is used elsewhere, another unit of the facility has the name, or a rented unit would change group.' })
  async putUnit(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('unitUuid', RecordUuidPipe) uuid: string,
    @Body() body: PutUnitRequest,
  ): Promise<PutResult> {
    const scope = { portfolioUuid: portfolio.uuid, facilityUuid };
    return { uuid, outcome: await this.dataSource.transaction((db) => this.facilities.putUnit(db, scope, uuid, body)) };
  }

  @Put(`${FACILITY}/promotions/:promotionUuid`)
  @ApiOperation({ operationId: 'putPromotion', summary: 'Create or replace a promotion of the facility', description: IDEMPOTENT })
  @ApiOkResponse({ type: PutResult })
  @uuidTaken
  async putPromotion(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('promotionUuid', RecordUuidPipe) uuid: string,
    @Body() body: PutPromotionRequest,
  ): Promise<PutResult> {
    const scope = { portfolioUuid: portfolio.uuid, facilityUuid };
    return { uuid, outcome: await this.dataSource.transaction((db) => this.facilities.putPromotion(db, scope, uuid, body)) };
  }

  @Put(`${FACILITY}/coverages/:coverageUuid`)
  @ApiOperation({ operationId: 'putCoverage', summary: 'Create or replace a coverage the facility offers', description: IDEMPOTENT })
  @ApiOkResponse({ type: PutResult })
  @uuidTaken
  async putCoverage(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('coverageUuid', RecordUuidPipe) uuid: string,
    @Body() body: PutCoverageRequest,
  ): Promise<PutResult> {
    const scope = { portfolioUuid: portfolio.uuid, facilityUuid };
    return { uuid, outcome: await this.dataSource.transaction((db) => this.facilities.putCoverage(db, scope, uuid, body)) };
  }

  @Put(`${FACILITY}/delinquencySchedule`)
  @ApiOperation({
    operationId: 'putDelinquencySchedule',
    summary: 'Give the facility its own delinquency schedule (stages in order: graceDays + 1 ≤ overlockDay ≤ lienDay ≤ auctionDay)',
    description: 'One per facility (its natural key): a retry answers `unchanged`.',
  })
  @ApiOkResponse({ type: DelinquencyScheduleResult })
  async putDelinquencySchedule(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Body() body: PutDelinquencyScheduleRequest,
  ): Promise<DelinquencyScheduleResult> {
    const scope = { portfolioUuid: portfolio.uuid, facilityUuid };
    return { facilityUuid, outcome: await this.dataSource.transaction((db) => this.facilities.putDelinquencySchedule(db, scope, body)) };
  }
}
