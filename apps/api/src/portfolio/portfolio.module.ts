import { Module } from '@nestjs/common';
import { PortfolioController, PortfoliosController } from './portfolio.controller';
import { RecordsService } from './records.service';
import { UnitGroupsService } from './unit-groups.service';

@Module({ controllers: [PortfoliosController, PortfolioController], providers: [RecordsService, UnitGroupsService] })
export class PortfolioModule {}
