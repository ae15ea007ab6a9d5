import { Controller, Inject } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
import type { EventEnvelope } from '@storage/domain';
import { DelinquencyService } from '@storage/delinquency';
import { ProcessedEvents } from '@storage/messaging';

/** The consumer group of the scheduler's billing consumer. */
export const PAYMENTS_GROUP = 'delinquency-scheduler.payments';

/** Billing facts: a payment that clears the balance resolves delinquency; a partial one changes nothing. */
@Controller()
export class PaymentsController {
  constructor(
    @Inject(DelinquencyService) private readonly delinquency: DelinquencyService,
    @Inject(ProcessedEvents) private readonly processed: ProcessedEvents,
  ) {}

  @EventPattern('payment-recorded')
  async paymentRecorded(envelope: EventEnvelope<'payment-recorded'>): Promise<void> {
    await this.processed.runOnce(PAYMENTS_GROUP, envelope.eventId, async (manager) => {
      await this.delinquency.resolvePayment(manager, envelope.payload);
    });
  }
}
