import { Body, Controller, Get, HttpCode, Inject, Param, Patch, Post, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiKeyAuth, ApiKeyService, CurrentApiKey, CurrentPortfolio, ReadOperation, type ApiKeyPrincipal, type PortfolioRef } from '../auth';
import { ApiIdempotencyKey, ApiInvalidResponse, IdempotencyKey, JsonStringResponse, markReplayed, PrebuiltJson, replayedHeaderDoc, UuidPipe } from '../common';
import {
  CoverageHistoryLookup,
  CoverageHistoryRecord,
  CreateNote,
  NoteCreated,
  PatchUnitGroupRate,
  PersonContact,
  PortfolioView,
  SizeAndTypeLookup,
  SizeAndTypeUnitGroup,
  UnitGroupRates,
  UpdatePerson,
  VehicleLookup,
  VehicleView,
} from './portfolio.dto';
import { RecordsService } from './records.service';
import { UnitGroupsService } from './unit-groups.service';

/** Operation 6: the portfolios the key reaches. */
@ApiKeyAuth()
@Controller('api/portfolios')
export class PortfoliosController {
  constructor(@Inject(ApiKeyService) private readonly apiKeys: ApiKeyService) {}

  @Get()
  @ApiTags('Portfolios')
  @ApiOperation({
    operationId: 'listPortfolios',
    summary: 'List portfolios',
    description: 'The portfolios the API key may reach (every portfolio for a key of all portfolios).',
  })
  @ApiOkResponse({ type: [PortfolioView] })
  async list(@CurrentApiKey() principal: ApiKeyPrincipal): Promise<PortfolioView[]> {
    const portfolios = await this.apiKeys.reachablePortfolios(principal);
    return portfolios.map((portfolio) => ({ portfolioName: portfolio.name, portfolioId: portfolio.portfolioId }));
  }
}

/** Operations 7 to 12 and 14. */
@ApiKeyAuth()
@ApiInvalidResponse()
@Controller('api/:portfolio/portfolios/v1')
export class PortfolioController {
  constructor(
    @Inject(UnitGroupsService) private readonly unitGroups: UnitGroupsService,
    @Inject(RecordsService) private readonly records: RecordsService,
  ) {}

  @Post('facilities/:facilityUuid/unitGroups/sizeAndType/get_by_uuids')
  @HttpCode(200)
  @ReadOperation()
  @PrebuiltJson()
  @ApiTags('Unit Groups')
  @ApiOperation({
    operationId: 'getSizeAndTypeUnitGroupsByUuids',
    summary: 'Size-and-type unit groups by UUIDs',
    description: "The facility's size-and-type unit groups named in the body, with their rates, amenities and unit counts. Reads only: a read key may call it.",
  })
  @ApiOkResponse({ type: [SizeAndTypeUnitGroup] })
  sizeAndTypeGroups(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Body() body: SizeAndTypeLookup,
  ): Promise<string> {
    return this.unitGroups.sizeAndTypeGroupsJson(portfolio.uuid, facilityUuid, body.sizeAndTypeUnitGroupUuids);
  }

  @Post('facilities/:facilityUuid/vehicles/get_by_uuids')
  @HttpCode(200)
  @ReadOperation()
  @ApiTags('Tenants')
  @ApiOperation({
    operationId: 'getVehiclesByUuids',
    summary: 'Vehicles by UUIDs',
    description: "The vehicles of the facility's tenants named in the body. Reads only: a read key may call it.",
  })
  @ApiOkResponse({ type: [VehicleView] })
  vehicles(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Body() body: VehicleLookup,
  ): Promise<VehicleView[]> {
    return this.records.vehicles(portfolio.uuid, facilityUuid, body.vehicleUuids);
  }

  @Post('facilities/:facilityUuid/coverageHistory/get_by_uuids')
  @HttpCode(200)
  @ReadOperation()
  @ApiTags('Coverages')
  @ApiOperation({
    operationId: 'getCoverageHistoryByUuids',
    summary: 'Coverage history by UUIDs',
    description: "The coverage enrollments of the facility's rentals named in the body, ended ones included. Reads only: a read key may call it.",
  })
  @ApiOkResponse({ type: [CoverageHistoryRecord] })
  coverageHistory(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Body() body: CoverageHistoryLookup,
  ): Promise<CoverageHistoryRecord[]> {
    return this.records.coverageHistory(portfolio.uuid, facilityUuid, body.coverageHistoryUuids);
  }

  @Patch('facilities/:facilityUuid/unitGroups/:unitGroupUuid/rate')
  @ApiTags('Unit Groups')
  @ApiOperation({
    operationId: 'patchUnitGroupRate',
    summary: 'Patch base rates (deprecated)',
    deprecated: true,
    description:
      "Sets the unit group's base rates (at least one of them). Its current rates are recomputed as base × (1 + the adjustment of its occupancy band) and answered with the new base.",
  })
  @ApiOkResponse({ type: UnitGroupRates, description: 'Unit group rate patched.' })
  patchRate(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('unitGroupUuid', UuidPipe) unitGroupUuid: string,
    @Body() body: PatchUnitGroupRate,
  ): Promise<UnitGroupRates> {
    return this.unitGroups.patchRate(portfolio.uuid, facilityUuid, unitGroupUuid, body);
  }

  @Patch('tenants/person/:personUuid')
  @ApiTags('Tenants')
  @ApiOperation({
    operationId: 'updatePerson',
    summary: 'Update person email or phone',
    description: "Replaces the person's email or phone (absent fields are kept). The phone is stored as its ten digits, the email lower-cased.",
  })
  @ApiOkResponse({ type: PersonContact, description: 'Person updated successfully.' })
  updatePerson(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('personUuid', UuidPipe) personUuid: string,
    @Body() body: UpdatePerson,
  ): Promise<PersonContact> {
    return this.records.updatePerson(portfolio.uuid, personUuid, body);
  }

  @Post('notes/lead/:leadUuid')
  @HttpCode(200)
  @ApiTags('Notes')
  @ApiOperation({
    operationId: 'createLeadNote',
    summary: 'Create a note for a lead',
    description:
      'Adds a free-text note to the lead. With an `Idempotency-Key`, a retry answers the note first created (header `Idempotent-Replayed: true`) instead of adding another.',
  })
  @ApiIdempotencyKey('note')
  @ApiOkResponse({ type: NoteCreated, headers: replayedHeaderDoc('note first created') })
  @ApiUnprocessableEntityResponse({ description: 'The Idempotency-Key was first used for a different note (another lead or text).' })
  async createNote(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('leadUuid', UuidPipe) leadUuid: string,
    @Body() body: CreateNote,
    @IdempotencyKey() idempotencyKey: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<NoteCreated> {
    const { note, replayed } = await this.records.createNote(portfolio.uuid, leadUuid, body.noteText, idempotencyKey);
    markReplayed(reply, replayed);
    return note;
  }

  @Get('facilities/:facilityUuid/rentalRecords/:unitRentalRecordUuid/gateAccessCode')
  @ApiTags('Rental Records')
  @ApiOperation({
    operationId: 'getGateAccessCode',
    summary: 'Gate access code of a rental record',
    description:
      'The rental\'s gate access code as a JSON string. `"SUSPENDED"` while the code is suspended by delinquency (overlock); 404 once the tenant has moved out.',
  })
  @JsonStringResponse('The gate access code.')
  async gateAccessCode(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @Param('facilityUuid', UuidPipe) facilityUuid: string,
    @Param('unitRentalRecordUuid', UuidPipe) rentalRecordUuid: string,
  ): Promise<string> {
    return JSON.stringify(await this.records.gateAccessCode(portfolio.uuid, facilityUuid, rentalRecordUuid));
  }
}
