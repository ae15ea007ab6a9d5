import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import {
  addDays,
  applyDelinquencyTrigger,
  daysBetween,
  stageRank,
  toEventStatus,
  type CalendarDate,
  type DelinquencyStatusChange,
  type DelinquencyTransition,
  type RentalDelinquencyStatus,
} from '@storage/domain';
import type { OutboxPublisher } from '@storage/messaging';
import { postLateFee, writeOff } from '@storage/rental-ledger';
import { auctionEventObject, newAuction, pendingAuction, saveAuction } from './auctions';
import { DelinquencyConflict } from './errors';
import { eventTimes } from './event-times';
import { delinquencyState, type LockedRental } from './locked-rental';
import { publishRentalEvents, type PendingEvent } from './rental-event-batch';

export interface TransitionOptions {
  /** Set when a payment caused the change (the event's paymentDate). */
  paymentDate?: CalendarDate | null;
  /** The business-day run applying it, recorded on the delinquency. */
  businessDate?: CalendarDate;
  /** Charged when a new episode starts (entering OVERDUE). */
  lateFeeInPennies?: number;
  /** Events that belong before the status change in the same transaction (an auction completed). */
  leadingEvents?: PendingEvent[];
  /** Events that follow it (the tenant moved out). */
  trailingEvents?: PendingEvent[];
}

/** What a rental's delinquency is after a change. */
export interface DelinquencyView {
  rentalRecordUuid: string;
  delinquencyUuid: string;
  status: RentalDelinquencyStatus;
  pausedFrom: RentalDelinquencyStatus | null;
  statusChangedOn: CalendarDate;
}

/**
 * Applies one transition to a locked rental in the caller's transaction: validated by the state machine,
 * with its effects (late fee, gate code, auction, write-off) and its events through the outbox, the
 * delinquency-status-change exactly once.
 */
export async function writeTransition(
  manager: EntityManager,
  publisher: OutboxPublisher,
  rental: LockedRental,
  transition: DelinquencyTransition,
  options: TransitionOptions = {},
): Promise<DelinquencyView> {
  const state = delinquencyState(rental);
  if (state.status !== transition.from) {
    throw new DelinquencyConflict(`Delinquency is ${state.status}, not ${transition.from}.`);
  }
  const { next, day, startsEpisode, delinquencyUuid, newStatus } = planTransition(rental, transition);
  const events: PendingEvent[] = [...(options.leadingEvents ?? [])];

  if (next.status === 'PAID' || next.status === 'WRITTEN_OFF') {
    // A pending auction ends with the delinquency that called for it, announced before the change.
    const auction = await pendingAuction(manager, rental.rentalRecordUuid);
    if (auction) {
      const canceled = { ...auction, stage: 'CANCELED' as const, canceledOn: day };
      await saveAuction(manager, canceled);
      events.push({ type: 'auction', added: { auction: auctionEventObject(canceled) } });
    }
  }
  if (startsEpisode && (options.lateFeeInPennies ?? 0) > 0) {
    events.push(...(await chargeLateFee(manager, rental, options.lateFeeInPennies ?? 0, day, delinquencyUuid)));
  }
  const writtenOff = transition.trigger === 'WRITE_OFF' ? await writeOff(manager, rental, day) : 0;
  events.push(statusChangeEvent(delinquencyUuid, state.status, newStatus, day, options.paymentDate ?? null));
  // Only reaching the auction day calls for an auction; resuming into AUCTION keeps the one there was.
  if (next.status === 'AUCTION' && transition.trigger === 'STAGE_ADVANCE') {
    const auction = newAuction({
      rentalRecordUuid: rental.rentalRecordUuid,
      delinquencyUuid,
      facilityUuid: rental.facilityUuid,
      createdOn: day,
      balanceInPennies: rental.balanceInPennies,
    });
    await saveAuction(manager, auction);
    events.push({ type: 'auction', added: { auction: auctionEventObject(auction) } });
  }
  await updateGateAccess(manager, rental, next.status, day);
  events.push(...(options.trailingEvents ?? []));

  const times = eventTimes(rental.delinquency?.lastEventAt ?? null, events.length);
  await saveDelinquency(manager, {
    rental,
    delinquencyUuid,
    status: next.status,
    pausedFrom: next.pausedFrom,
    pastDueSince: pastDueSinceAfter(rental, transition, startsEpisode),
    statusChangedOn: day,
    businessDate: options.businessDate ?? null,
    writtenOff,
    lastEventAt: times[times.length - 1] ?? null,
  });
  await publishRentalEvents(manager, publisher, rental.rentalRecordUuid, events, times);
  return { rentalRecordUuid: rental.rentalRecordUuid, delinquencyUuid, status: next.status, pausedFrom: next.pausedFrom, statusChangedOn: day };
}

/** Days past due count from the episode's due date; paused days do not count, so RESUME moves it on by them. */
/** The `delinquency-status-change` event of one transition (spec 6.3); paymentDate only when a payment caused it. */
export function statusChangeEvent(
  delinquencyUuid: string,
  from: RentalDelinquencyStatus,
  to: DelinquencyStatusChange['delinquencyNewStatus'],
  day: CalendarDate,
  paymentDate: CalendarDate | null,
): PendingEvent {
  return {
    type: 'delinquency-status-change',
    added: {
      delinquencyStatusChange: {
        delinquencyUuid,
        delinquencyPreviousStatus: toEventStatus(from),
        delinquencyNewStatus: to,
        delinquencyStatusChangeDate: day,
        paymentDate,
      },
    },
  };
}

export function pastDueSinceAfter(rental: LockedRental, transition: DelinquencyTransition, startsEpisode: boolean): CalendarDate | null {
  // An episode counts from the oldest open charge when it starts; a payment later does not restart the count.
  if (startsEpisode) return rental.oldestOpenDueOn ?? rental.facilityToday;
  if (transition.to === 'PAID') return null;
  const current = rental.delinquency?.pastDueSince ?? null;
  const pausedOn = rental.delinquency?.statusChangedOn ?? null;
  if (transition.trigger === 'RESUME' && pausedOn !== null) {
    const pausedDays = Math.max(daysBetween(pausedOn, transition.effectiveDate), 0);
    return addDays(current ?? rental.oldestOpenDueOn ?? rental.facilityToday, pausedDays);
  }
  return current;
}

async function chargeLateFee(manager: EntityManager, rental: LockedRental, fee: number, day: CalendarDate, delinquencyUuid: string): Promise<PendingEvent[]> {
  const chargeUuid = randomUUID();
  const balanceAfterInPennies = await postLateFee(manager, rental, { chargeUuid, amountInPennies: fee, day, delinquencyUuid });
  if (balanceAfterInPennies === null) return [];
  return [
    {
      type: 'charge-posted',
      payload: { rentalRecordUuid: rental.rentalRecordUuid, chargeUuid, amountInPennies: fee, description: 'Late fee', balanceAfterInPennies, dueDate: day },
    },
  ];
}

/** Overlock suspends the gate code until the debt is gone (paid or written off). */
async function updateGateAccess(manager: EntityManager, rental: LockedRental, status: RentalDelinquencyStatus, day: CalendarDate): Promise<void> {
  switch (status) {
    case 'OVERLOCK':
    case 'LIEN':
    case 'AUCTION':
      await manager.query(
        `INSERT INTO gate_code_suspensions (rental_record_uuid, facility_uuid, suspended_on) VALUES ($1, $2, $3)
         ON CONFLICT (rental_record_uuid) DO NOTHING`,
        [rental.rentalRecordUuid, rental.facilityUuid, day],
      );
      return;
    case 'PAID':
    case 'WRITTEN_OFF':
      await manager.query('DELETE FROM gate_code_suspensions WHERE rental_record_uuid = $1', [rental.rentalRecordUuid]);
      return;
    case 'CURRENT':
    case 'OVERDUE':
    case 'PAUSED':
      return;
  }
}

async function saveDelinquency(
  manager: EntityManager,
  row: {
    rental: LockedRental;
    delinquencyUuid: string;
    status: RentalDelinquencyStatus;
    pausedFrom: RentalDelinquencyStatus | null;
    pastDueSince: CalendarDate | null;
    statusChangedOn: CalendarDate;
    businessDate: CalendarDate | null;
    writtenOff: number;
    lastEventAt: Date | null;
  },
): Promise<void> {
  await manager.query(
    `INSERT INTO delinquencies (rental_record_uuid, facility_uuid, delinquency_uuid, status, paused_from, past_due_since,
                                status_changed_on, last_business_date, written_off_in_pennies, last_event_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (rental_record_uuid) DO UPDATE SET delinquency_uuid = EXCLUDED.delinquency_uuid, status = EXCLUDED.status,
       paused_from = EXCLUDED.paused_from, past_due_since = EXCLUDED.past_due_since, status_changed_on = EXCLUDED.status_changed_on,
       last_business_date = COALESCE(EXCLUDED.last_business_date, delinquencies.last_business_date),
       written_off_in_pennies = delinquencies.written_off_in_pennies + EXCLUDED.written_off_in_pennies,
       last_event_at = EXCLUDED.last_event_at, updated_at = now()`,
    [
      row.rental.rentalRecordUuid,
      row.rental.facilityUuid,
      row.delinquencyUuid,
      row.status,
      row.pausedFrom,
      row.pastDueSince,
      row.statusChangedOn,
      row.businessDate,
      row.writtenOff,
      row.lastEventAt,
    ],
  );
}

/** What a transition makes of a rental's delinquency: shared by `writeTransition` and the business-day advancer. */
export function planTransition(rental: LockedRental, transition: DelinquencyTransition) {
  const state = delinquencyState(rental);
  const next = applyDelinquencyTrigger(state, transition.trigger);
  if (next.status !== transition.to) throw new Error(`${transition.trigger} leads ${state.status} to ${next.status}, not ${transition.to}`);
  const startsEpisode = next.status === 'OVERDUE' && stageRank(state.status) === 0;
  const newStatus = toEventStatus(next.status);
  if (newStatus === null) throw new Error('No transition leads back to not delinquent');
  return {
    state,
    next,
    day: transition.effectiveDate,
    startsEpisode,
    delinquencyUuid: startsEpisode || rental.delinquency === null ? randomUUID() : rental.delinquency.delinquencyUuid,
    newStatus,
  };
}
