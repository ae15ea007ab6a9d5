import { Module } from '@nestjs/common';
import { RentalsModule } from '../rentals/rentals.module';
import { PromotionsService } from '../shopping/promotions.service';
import { LeaseSigningController } from './lease-signing.controller';
import { LeaseSigningService } from './lease-signing.service';

/** The lease page of operation 13's signing link; signing is the move-in. */
@Module({
  imports: [RentalsModule],
  controllers: [LeaseSigningController],
  // Operation 1's pricing, for the promotions the page lists.
  providers: [LeaseSigningService, PromotionsService],
})
export class LeaseSigningModule {}
