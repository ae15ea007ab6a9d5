import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { addDays, type Auction, type AuctionStage, type CalendarDate } from '@storage/domain';
import { fragment, query, sql } from '@storage/persistence';

/** Days of notice between entering AUCTION and the sale, and length of the bidding window, unless an operator sets them. */
export const AUCTION_NOTICE_DAYS = 14;
export const AUCTION_BIDDING_DAYS = 7;

export interface AuctionRow {
  uuid: string;
  rentalRecordUuid: string;
  delinquencyUuid: string;
  facilityUuid: string;
  stage: AuctionStage;
  scheduledOn: CalendarDate;
  startDate: CalendarDate;
  endDate: CalendarDate;
  canceledOn: CalendarDate | null;
  completedOn: CalendarDate | null;
  minimumBidInPennies: number;
  winningBidInPennies: number | null;
}

/** An auction row's columns as AuctionRow names them, for the statements that read one. */
export const AUCTION_COLUMNS = fragment(`uuid, rental_record_uuid AS "rentalRecordUuid", delinquency_uuid AS "delinquencyUuid",
  facility_uuid AS "facilityUuid", stage, scheduled_on::text AS "scheduledOn", start_date::text AS "startDate",
  end_date::text AS "endDate", canceled_on::text AS "canceledOn", completed_on::text AS "completedOn",
  minimum_bid_in_pennies AS "minimumBidInPennies", winning_bid_in_pennies AS "winningBidInPennies"`);

const PENDING_AUCTION = sql<AuctionRow, [string]>(
  `SELECT ${AUCTION_COLUMNS} FROM auctions WHERE rental_record_uuid = $1 AND stage IN ('CREATED', 'SCHEDULED')`,
);

/** The rental's auction that is neither canceled nor completed (the caller holds the rental lock). */
export async function pendingAuction(manager: EntityManager, rentalRecordUuid: string): Promise<AuctionRow | null> {
  const [auction] = await query(manager, PENDING_AUCTION, [rentalRecordUuid]);
  return auction ?? null;
}

/** A new auction held after the notice period, its minimum bid what the tenant owes. */
export function newAuction(input: {
  rentalRecordUuid: string;
  delinquencyUuid: string;
  facilityUuid: string;
  createdOn: CalendarDate;
  balanceInPennies: number;
}): AuctionRow {
  const scheduledOn = addDays(input.createdOn, AUCTION_NOTICE_DAYS);
  return {
    uuid: randomUUID(),
    rentalRecordUuid: input.rentalRecordUuid,
    delinquencyUuid: input.delinquencyUuid,
    facilityUuid: input.facilityUuid,
    stage: 'CREATED',
    scheduledOn,
    startDate: scheduledOn,
    endDate: addDays(scheduledOn, AUCTION_BIDDING_DAYS),
    canceledOn: null,
    completedOn: null,
    minimumBidInPennies: Math.max(input.balanceInPennies, 0),
    winningBidInPennies: null,
  };
}

const SAVE_AUCTION = sql<
  never,
  [
    uuid: string,
    rentalRecordUuid: string,
    delinquencyUuid: string,
    facilityUuid: string,
    stage: AuctionStage,
    scheduledOn: CalendarDate,
    startDate: CalendarDate,
    endDate: CalendarDate,
    canceledOn: CalendarDate | null,
    completedOn: CalendarDate | null,
    minimumBidInPennies: number,
    winningBidInPennies: number | null,
  ]
>(
  `INSERT INTO auctions (uuid, rental_record_uuid, delinquency_uuid, facility_uuid, stage, scheduled_on, start_date, end_date,
                         canceled_on, completed_on, minimum_bid_in_pennies, winning_bid_in_pennies)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
   ON CONFLICT (uuid) DO UPDATE SET stage = EXCLUDED.stage, scheduled_on = EXCLUDED.scheduled_on,
     start_date = EXCLUDED.start_date, end_date = EXCLUDED.end_date, canceled_on = EXCLUDED.canceled_on,
     completed_on = EXCLUDED.completed_on, minimum_bid_in_pennies = EXCLUDED.minimum_bid_in_pennies,
     winning_bid_in_pennies = EXCLUDED.winning_bid_in_pennies, updated_at = now()`,
);

export async function saveAuction(manager: EntityManager, auction: AuctionRow): Promise<void> {
  await query(manager, SAVE_AUCTION, [
    auction.uuid,
    auction.rentalRecordUuid,
    auction.delinquencyUuid,
    auction.facilityUuid,
    auction.stage,
    auction.scheduledOn,
    auction.startDate,
    auction.endDate,
    auction.canceledOn,
    auction.completedOn,
    auction.minimumBidInPennies,
    auction.winningBidInPennies,
  ]);
}

/** The `auction` object of spec 6.3. */
export function auctionEventObject(auction: AuctionRow): Auction {
  return {
    auctionUuid: auction.uuid,
    auctionCanceledOnDate: auction.canceledOn,
    auctionScheduledOnDate: auction.scheduledOn,
    auctionCompletedOnDate: auction.completedOn,
    auctionStartDate: auction.startDate,
    auctionEndDate: auction.endDate,
    auctionStage: auction.stage,
    minimumBidAmount: [{ amountInPennies: auction.minimumBidInPennies }],
    winningBidAmount: auction.winningBidInPennies === null ? [] : [{ amountInPennies: auction.winningBidInPennies }],
  };
}
