import type { EntityManager } from 'typeorm';
import type { DelinquencyTransition } from '@storage/domain';
import { OUTBOX_CHANNEL, type OutboxPublisher } from '@storage/messaging';
import { query, sql } from '@storage/persistence';
import { loadRentalEventContext } from '@storage/rental-events';
import { pendingAuction } from './auctions';
import type { LockedRental } from './locked-rental';
import { TRANSITION_WRITES, transitionWrite, transitionWritesValues, type DelinquencyView, type TransitionOptions } from './transition-write';

const NOTIFY = sql<unknown, [string, string]>('SELECT pg_notify($1, $2)');

/**
 * Applies one transition to a rental locked in the caller's transaction (payments, operator actions, auction
 * completion): `transitionWrite`'s statement, as the business-day run writes its batches, for one rental with bound parameters.
 */
export async function writeTransition(
  manager: EntityManager,
  publisher: OutboxPublisher,
  rental: LockedRental,
  transition: DelinquencyTransition,
  options: TransitionOptions = {},
): Promise<DelinquencyView> {
  const context = await loadRentalEventContext(manager, rental.rentalRecordUuid);
  if (context === null) throw new Error(`Rental record ${rental.rentalRecordUuid} vanished inside its own transaction`);
  const endsDebt = transition.to === 'PAID' || transition.to === 'WRITTEN_OFF';
  const write = transitionWrite({
    rental,
    transition,
    pendingAuction: endsDebt ? await pendingAuction(manager, rental.rentalRecordUuid) : null,
    context,
    stateVersion: null,
    options,
  });
  const [written] = await query(manager, TRANSITION_WRITES, transitionWritesValues([write.arguments], publisher.service));
  if (written === undefined) throw new Error(`Rental record ${rental.rentalRecordUuid} vanished inside its own transaction`);
  // Delivered at commit, so a rolled-back transition wakes nobody (the relay also polls).
  await query(manager, NOTIFY, [OUTBOX_CHANNEL, '']);
  return write.view;
}
