import { Module } from '@nestjs/common';
import { AuctionService, DelinquencyService } from '@storage/delinquency';
import { OutboxPublisher } from '@storage/messaging';
import { SERVICE_NAME } from '../service-info';
import { DelinquencyController } from './delinquency.controller';

/** The operator routes of @storage/delinquency; their events leave through the api's outbox. */
@Module({
  controllers: [DelinquencyController],
  providers: [DelinquencyService, AuctionService, { provide: OutboxPublisher, useValue: new OutboxPublisher(SERVICE_NAME) }],
})
export class ApiDelinquencyModule {}
