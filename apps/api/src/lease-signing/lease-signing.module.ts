import { Module, type DynamicModule } from '@nestjs/common';
import { RentalsModule } from '../rentals/rentals.module';
import { PromotionsService } from '../shopping/promotions.service';
import { LeaseSigningController } from './lease-signing.controller';
import { LeaseSigningService } from './lease-signing.service';
import { LEASE_PAGE_ORIGIN } from './same-origin.guard';

/** The lease page of operation 13's signing link; signing is the move-in. */
@Module({})
export class LeaseSigningModule {
  /** `publicBaseUrl` (PUBLIC_BASE_URL): the lease page's own origin, where a signing may be posted from. */
  static forRoot(options: { publicBaseUrl: string }): DynamicModule {
    return {
      module: LeaseSigningModule,
      imports: [RentalsModule],
      controllers: [LeaseSigningController],
      // Operation 1's pricing, for the promotions the page lists.
      providers: [LeaseSigningService, PromotionsService, { provide: LEASE_PAGE_ORIGIN, useValue: new URL(options.publicBaseUrl).origin }],
    };
  }
}
