import { z } from 'zod';
import { calendarDateSchema } from '../../calendar-date';
import { uuidSchema } from '../../ids';
import { penniesSchema } from '../../money';
import { lifecyclePayloadSchema } from './base-payload';

/** The spec leaves auction stages open; these follow the auction event's occasions plus completion. */
export const AUCTION_STAGES = ['CREATED', 'SCHEDULED', 'CANCELED', 'COMPLETED'] as const;
export type AuctionStage = (typeof AUCTION_STAGES)[number];

/** An entry of minimumBidAmount / winningBidAmount; the spec says only "array", this is ours. */
export const bidAmountSchema = z.object({ amountInPennies: penniesSchema });
export type BidAmount = z.infer<typeof bidAmountSchema>;

/** Spec 6.3 auction. A date the auction has not reached yet is null; winningBidAmount stays empty until completion. */
export const auctionSchema = z.object({
  auctionUuid: uuidSchema,
  auctionCanceledOnDate: calendarDateSchema.nullable(),
  auctionScheduledOnDate: calendarDateSchema.nullable(),
  auctionCompletedOnDate: calendarDateSchema.nullable(),
  auctionStartDate: calendarDateSchema.nullable(),
  auctionEndDate: calendarDateSchema.nullable(),
  auctionStage: z.enum(AUCTION_STAGES),
  minimumBidAmount: z.array(bidAmountSchema),
  winningBidAmount: z.array(bidAmountSchema),
});
export type Auction = z.infer<typeof auctionSchema>;

export const auctionPayloadSchema = lifecyclePayloadSchema('auction', { auction: auctionSchema });
export type AuctionPayload = z.infer<typeof auctionPayloadSchema>;
