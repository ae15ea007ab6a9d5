import { Module } from '@nestjs/common';
import { AutopayController } from './autopay.controller';
import { AutopayService } from './autopay.service';
import { LifecyclePublisher } from './lifecycle-publisher';
import { MoveOutService } from './move-out.service';
import { PaymentsService } from './payments.service';
import { RentChangeService } from './rent-change.service';
import { RentalLedgerController } from './rental-ledger.controller';
import { RentalRecordsController } from './rental-records.controller';
import { RentalServicesService } from './rental-services.service';
import { RentalsController } from './rentals.controller';
import { TransferService } from './transfer.service';

/** The rental lifecycle's operator extensions, the facility's rental list and the rental's ledger. Needs MessagingModule (global) for the outbox. */
@Module({
  controllers: [RentalRecordsController, RentalsController, RentalLedgerController, AutopayController],
  providers: [LifecyclePublisher, AutopayService, PaymentsService, MoveOutService, RentChangeService, RentalServicesService, TransferService],
  exports: [LifecyclePublisher],
})
export class RentalsModule {}
