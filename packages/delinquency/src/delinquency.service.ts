import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  applyDelinquencyTrigger,
  transitionForPayment,
  transitionsForBusinessDate,
  type CalendarDate,
  type DelinquencySchedule,
  type DelinquencyTransition,
  type DelinquencyTrigger,
  type PaymentRecordedPayload,
} from '@storage/domain';
import { OutboxPublisher } from '@storage/messaging';
import { DelinquencyConflict, RentalNotFound } from './errors';
import { delinquencyInput, delinquencyState, lockRental, type LockedRental, type RentalRef } from './locked-rental';
import { facilitySchedule } from './schedules';
import { writeTransition, type DelinquencyView } from './transition-writer';

/** Rental delinquency changes, each in one transaction with its events. */
@Injectable()
export class DelinquencyService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(OutboxPublisher) private readonly publisher: OutboxPublisher,
  ) {}

  /**
   * Applies the first transition `businessDate` brings the rental, in its own transaction; null when there
   * is none. Called again until null, it catches a rental up stage by stage, each stage once even when
   * several runs race: the transition is computed under the rental's lock from the state found there.
   */
  async advance(rentalRecordUuid: string, businessDate: CalendarDate, schedule: DelinquencySchedule): Promise<DelinquencyTransition | null> {
    return this.dataSource.transaction(async (manager) => {
      const rental = await lockRental(manager, { rentalRecordUuid });
      // A run of an older date after a newer one must not backdate anything.
      const processed = rental.delinquency?.lastBusinessDate;
      if (!rental.active || (processed != null && processed > businessDate)) return null;
      const [next] = transitionsForBusinessDate({ ...delinquencyInput(rental), schedule, businessDate });
      if (next === undefined) return null;
      await writeTransition(manager, this.publisher, rental, next, {
        businessDate,
        lateFeeInPennies: schedule.lateFeeInPennies,
        // The balance was found cleared without its payment applied yet: the payment caused it.
        paymentDate: next.trigger === 'PAYMENT_CLEARED' ? next.effectiveDate : null,
      });
      return next;
    });
  }

  /**
   * A recorded payment, in the caller's transaction (the consumer's, with its processed-event row): when the
   * rental's ledger has nothing past due beyond the grace days any more, a delinquent rental moves to PAID with
   * the payment's date; anything else does nothing.
   */
  async resolvePayment(manager: EntityManager, payment: PaymentRecordedPayload): Promise<DelinquencyTransition | null> {
    // Rentals are never deleted: a payment of a rental this database does not hold belongs to another deployment
    // sharing the broker's topic. There is nothing to resolve, and retrying it would only hold up the partition.
    const rental = await lockRental(manager, { rentalRecordUuid: payment.rentalRecordUuid }).catch((error: unknown) => {
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
      const rental = await lockRental(manager, ref);
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
