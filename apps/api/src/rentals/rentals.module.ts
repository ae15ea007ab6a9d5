import { Module } from '@nestjs/common';
import { AutopayController } from './autopay.controller';
import { AutopayService } from './autopay.service';
import { LifecyclePublisher } from './lifecycle-publisher';
import { MoveInService } from './use-cases/move-in';
import { MoveOutService } from './use-cases/move-out';
import { PaymentsService } from './use-cases/payment';
import { RentChangeService } from './use-cases/rent-change';
import { RentalLedgerController } from './rental-ledger.controller';
import { RentalRecordsController } from './rental-records.controller';
import { RentalServicesService } from './use-cases/services';
import { RentalsController } from './rentals.controller';
import { TransferService } from './use-cases/transfer';

/** The rental lifecycle's operator extensions, the facility's rental list and the rental's ledger. Needs MessagingModule (global) for the outbox. */
@Module({
  controllers: [RentalRecordsController, RentalsController, RentalLedgerController, AutopayController],
  providers: [LifecyclePublisher, AutopayService, PaymentsService, MoveInService, MoveOutService, RentChangeService, RentalServicesService, TransferService],
  exports: [MoveInService],
})
export class RentalsModule {}
