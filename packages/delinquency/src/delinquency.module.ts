import { Module } from '@nestjs/common';
import { AuctionService } from './auction.service';
import { DelinquencyService } from './delinquency.service';

/** The delinquency services; needs the DataSource (DatabaseModule) and OutboxPublisher (MessagingModule) in scope. */
@Module({ providers: [DelinquencyService, AuctionService], exports: [DelinquencyService, AuctionService] })
export class DelinquencyModule {}
