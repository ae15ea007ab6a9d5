import { Body, Controller, Inject, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { AdminOperation, ApiKeyAuth, ApiKeyService } from '../auth';
import { ApiInvalidResponse } from '../common';
import { CatalogService } from './catalog.service';
import { PORTFOLIO_ID_PATTERN, PortfolioResult, PutPortfolioRequest } from './catalog.dto';
import { PortfolioIdPipe } from './portfolio-id.pipe';

/** Portfolios are created and renamed with an admin key only; a portfolio's own keys come from `api-keys create` after. */
@ApiTags('Extensions')
@ApiKeyAuth()
@ApiInvalidResponse()
@Controller('api/v1/portfolios')
export class PortfoliosAdminController {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(CatalogService) private readonly catalog: CatalogService,
    @Inject(ApiKeyService) private readonly apiKeys: ApiKeyService,
  ) {}

  @Put(':portfolioId')
  @AdminOperation()
  @ApiOperation({
    operationId: 'putPortfolio',
    summary: 'Create or rename a portfolio (admin key)',
    description:
      'Keyed by its `portfolioId`, the `{portfolio}` segment of its routes: a retry answers `unchanged`. Then `npm run cli -- api-keys create --portfolio <id>` issues its first key.',
  })
  @ApiParam({ name: 'portfolioId', schema: { type: 'string', pattern: PORTFOLIO_ID_PATTERN } })
  @ApiOkResponse({ type: PortfolioResult })
  async putPortfolio(@Param('portfolioId', PortfolioIdPipe) portfolioId: string, @Body() body: PutPortfolioRequest): Promise<PortfolioResult> {
    const result = await this.dataSource.transaction((db) => this.catalog.putPortfolio(db, portfolioId, body));
    // Once committed, so the key cache cannot pick up the portfolio's absence again.
    this.apiKeys.forgetPortfolio(portfolioId);
    return result;
  }
}
