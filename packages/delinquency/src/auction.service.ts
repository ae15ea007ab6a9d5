import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { addDays, type Auction, type CalendarDate } from '@storage/domain';
import { OutboxPublisher } from '@storage/messaging';
import { query, sql } from '@storage/persistence';
import { applyAuctionProceeds } from '@storage/rental-ledger';
import { endRental, eventTimes, type RentalRef } from '@storage/rentals';
import { AUCTION_BIDDING_DAYS, auctionEventObject, newAuction, pendingAuction, saveAuction, type AuctionRow } from './auctions';
import { operatorTransition } from './delinquency.service';
import { DelinquencyConflict, InvalidDelinquencyInput } from './errors';
import { lockWithDelinquency, type LockedRental } from './locked-rental';
import { publishRentalEvents } from './rental-event-batch';
import { writeTransition } from './transition-writer';

export interface AuctionChange {
  /** The day of the sale; the bidding window starts then. */
  scheduledOn?: CalendarDate;
  endDate?: CalendarDate;
  minimumBidInPennies?: number;
}

/** The delinquency's last event time, moved on by an auction event. */
const STAMP_LAST_EVENT = sql<never, [string, Date]>('UPDATE delinquencies SET last_event_at = $2, updated_at = now() WHERE rental_record_uuid = $1');

/** Operator actions on the auction of a rental in AUCTION; each emits the `auction` event. */
@Injectable()
export class AuctionService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(OutboxPublisher) private readonly publisher: OutboxPublisher,
  ) {}

  /** Sets the sale date (a new auction when the last one was canceled); the auction is then SCHEDULED. */
  schedule(ref: RentalRef, change: { scheduledOn: CalendarDate; endDate?: CalendarDate }): Promise<Auction> {
    return this.inTransaction(ref, async (manager, rental) => {
      const delinquency = rental.delinquency;
      if (delinquency?.status !== 'AUCTION')
        throw new DelinquencyConflict(`Only a rental in AUCTION has an auction to schedule (it is ${delinquency?.status ?? 'CURRENT'}).`);
      const current =
        (await pendingAuction(manager, rental.rentalRecordUuid)) ??
        newAuction({ ...rental, delinquencyUuid: delinquency.delinquencyUuid, createdOn: rental.facilityToday });
      const scheduled = withDates(
        rental,
        { ...current, stage: 'SCHEDULED' },
        { scheduledOn: change.scheduledOn, endDate: change.endDate ?? addDays(change.scheduledOn, AUCTION_BIDDING_DAYS) },
      );
      return this.save(manager, rental, scheduled);
    });
  }

  /** Changes the dates or the minimum bid of the pending auction; its stage stays. */
  update(ref: RentalRef, change: AuctionChange): Promise<Auction> {
    return this.inTransaction(ref, async (manager, rental) => {
      const current = await this.pending(manager, rental);
      const updated = withDates(rental, { ...current, minimumBidInPennies: change.minimumBidInPennies ?? current.minimumBidInPennies }, change);
      return this.save(manager, rental, updated);
    });
  }

  /** Cancels the pending auction; the rental stays in AUCTION until paid, written off or scheduled again. */
  cancel(ref: RentalRef): Promise<Auction> {
    return this.inTransaction(ref, async (manager, rental) => {
      const current = await this.pending(manager, rental);
      return this.save(manager, rental, { ...current, stage: 'CANCELED', canceledOn: rental.facilityToday });
    });
  }

  /**
   * The sale happened: the winning bid pays what it can, the rest is written off (WRITTEN_OFF), and the
   * tenant is moved out as by the api's move-out (`endRental`: rental, services and coverage ended, unit vacant,
   * gate code removed). Emits auction, the status change and moved-out, in that order.
   */
  complete(ref: RentalRef, winningBidInPennies: number): Promise<Auction> {
    return this.inTransaction(ref, async (manager, rental) => {
      const current = await this.pending(manager, rental);
      if (winningBidInPennies < current.minimumBidInPennies) {
        throw new InvalidDelinquencyInput('winningBidInPennies', `must be at least the minimum bid of ${current.minimumBidInPennies}`);
      }
      const writeOff = operatorTransition(rental, 'WRITE_OFF');
      const completed: AuctionRow = { ...current, stage: 'COMPLETED', completedOn: rental.facilityToday, winningBidInPennies };
      await saveAuction(manager, completed);
      const proceeds = Math.min(winningBidInPennies, Math.max(rental.balanceInPennies, 0));
      const balanceInPennies = await applyAuctionProceeds(manager, rental, proceeds, rental.facilityToday);
      await endRental(manager, { rentalRecordUuid: rental.rentalRecordUuid, unitUuid: rental.unitUuid, endDate: rental.facilityToday });
      await writeTransition(manager, this.publisher, { ...rental, balanceInPennies }, writeOff, {
        leadingEvents: [{ type: 'auction', added: { auction: auctionEventObject(completed) } }],
        trailingEvents: [{ type: 'moved-out', added: {} }],
      });
      return auctionEventObject(completed);
    });
  }

  private inTransaction<T>(ref: RentalRef, work: (manager: EntityManager, rental: LockedRental) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      const rental = await lockWithDelinquency(manager, ref);
      if (!rental.active) throw new DelinquencyConflict('The rental has moved out.');
      return work(manager, rental);
    });
  }

  private async pending(manager: EntityManager, rental: LockedRental): Promise<AuctionRow> {
    const auction = await pendingAuction(manager, rental.rentalRecordUuid);
    if (auction === null) throw new DelinquencyConflict('The rental has no pending auction.');
    return auction;
  }

  private async save(manager: EntityManager, rental: LockedRental, auction: AuctionRow): Promise<Auction> {
    await saveAuction(manager, auction);
    const times = eventTimes(rental.delinquency?.lastEventAt ?? null, 1);
    await query(manager, STAMP_LAST_EVENT, [rental.rentalRecordUuid, times[0]]);
    const event = auctionEventObject(auction);
    await publishRentalEvents(manager, this.publisher, rental.rentalRecordUuid, [{ type: 'auction', added: { auction: event } }], times);
    return event;
  }
}

/** New sale dates, checked: not before the facility's today, and the window not ending before it starts. */
function withDates(rental: LockedRental, auction: AuctionRow, change: AuctionChange): AuctionRow {
  const scheduledOn = change.scheduledOn ?? auction.scheduledOn;
  const endDate = change.endDate ?? auction.endDate;
  if (change.scheduledOn !== undefined && scheduledOn < rental.facilityToday) {
    throw new InvalidDelinquencyInput('scheduledOn', `must not be before the facility's current date ${rental.facilityToday}`);
  }
  if (endDate < scheduledOn) throw new InvalidDelinquencyInput('endDate', `must not be before scheduledOn ${scheduledOn}`);
  return { ...auction, scheduledOn, startDate: scheduledOn, endDate };
}
