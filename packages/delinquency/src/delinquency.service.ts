import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  applyDelinquencyTrigger,
  transitionForPayment,
  type DelinquencyTransition,
  type DelinquencyTrigger,
  type PaymentRecordedPayload,
} from '@storage/domain';
import { OutboxPublisher } from '@storage/messaging';
import type { RentalRef } from '@storage/rentals';
import { DelinquencyConflict, RentalNotFound } from './errors';
import { delinquencyState, lockWithDelinquency, type LockedRental } from './locked-rental';
import { facilitySchedule } from './schedules';
import type { DelinquencyView } from './transition-write';
import { writeTransition } from './transition-writer';

/** Rental delinquency changes, each in one transaction with its events. */
@Injectable()
export class DelinquencyService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(OutboxPublisher) private readonly publisher: OutboxPublisher,
  ) {}

  /**
   * A recorded payment, in the caller's transaction (the consumer's, with its processed-event row): when the
   * rental's ledger has nothing past due beyond the grace days any more, a delinquent rental moves to PAID with
   * the payment's date; anything else does nothing.
   */
  async resolvePayment(manager: EntityManager, payment: PaymentRecordedPayload): Promise<DelinquencyTransition | null> {
    // Rentals are never deleted: a payment of a rental this database does not hold belongs to another deployment
    // sharing the broker's topic. There is nothing to resolve, and retrying it would only hold up the partition.
    const rental = await lockWithDelinquency(manager, { rentalRecordUuid: payment.rentalRecordUuid }).catch((error: unknown) => {
      if (error instanceof RentalNotFound) return null;
      throw error;
    });
    if (rental === null) return null;
    const { schedule } = await facilitySchedule(manager, rental.facilityUuid);
    const transition = transitionForPayment({ state: delinquencyState(rental), oldestOpenDueOn: rental.oldestOpenDueOn, paidOn: payment.paidOn, schedule });
    if (transition === null) return null;
    await writeTransition(manager, this.publisher, rental, transition, { paymentDate: payment.paidOn });
    return transition;
  }

  /** Operator: halts progression until resumed. */
  pause(ref: RentalRef): Promise<DelinquencyView> {
    return this.operatorAction(ref, 'PAUSE');
  }

  /** Operator: back to the status held before the pause; the paused days do not count towards the next stage. */
  resume(ref: RentalRef): Promise<DelinquencyView> {
    return this.operatorAction(ref, 'RESUME');
  }

  /** Operator: the debt is given up (balance to zero, pending auction canceled); WRITTEN_OFF is final. */
  writeOff(ref: RentalRef): Promise<DelinquencyView> {
    return this.operatorAction(ref, 'WRITE_OFF');
  }

  private operatorAction(ref: RentalRef, trigger: DelinquencyTrigger): Promise<DelinquencyView> {
    return this.dataSource.transaction(async (manager) => {
      const rental = await lockWithDelinquency(manager, ref);
      return writeTransition(manager, this.publisher, rental, operatorTransition(rental, trigger));
    });
  }
}

/** A transition an operator asks for today at the facility; throws IllegalDelinquencyTransition when refused. */
export function operatorTransition(rental: LockedRental, trigger: DelinquencyTrigger): DelinquencyTransition {
  if (!rental.active) throw new DelinquencyConflict('The rental has moved out.');
  const state = delinquencyState(rental);
  const next = applyDelinquencyTrigger(state, trigger);
  return { from: state.status, to: next.status, trigger, effectiveDate: rental.facilityToday };
}
