import type { EntityManager } from 'typeorm';
import { openCharges, type CalendarDate, type PeriodCharge } from '@storage/domain';
import { asLedgerLines, ledgerEntries, periodChargeEntries, postEntries, type NewLedgerEntry } from './ledger-entries';

/**
 * The rental as its caller locked it (`FOR UPDATE` / `FOR NO KEY UPDATE` on `rental_records`): its uuid and the
 * balance read under that lock, so the balance after a posting is known without reading it again.
 */
export interface LockedBalance {
  rentalRecordUuid: string;
  balanceInPennies: number;
}

async function post(db: EntityManager, rental: LockedBalance, entries: readonly NewLedgerEntry[]): Promise<{ uuids: string[]; balanceAfterInPennies: number }> {
  const written = await postEntries(db, rental.rentalRecordUuid, entries);
  return {
    uuids: written.map((entry) => entry.uuid),
    balanceAfterInPennies: written.reduce((balance, entry) => balance + entry.amountInPennies, rental.balanceInPennies),
  };
}

/** A payment's entry: a credit that covers the oldest open charges first (`openCharges`). */
export function paymentEntry(payment: { paymentUuid: string; amountInPennies: number; paidOn: CalendarDate }): NewLedgerEntry {
  return {
    kind: 'PAYMENT',
    description: 'Payment',
    amountInPennies: -payment.amountInPennies,
    postedOn: payment.paidOn,
    dueOn: null,
    paymentUuid: payment.paymentUuid,
  };
}

/** Posts `paymentEntry(payment)`. Returns the balance after. */
export async function recordPayment(db: EntityManager, rental: LockedBalance, payment: Parameters<typeof paymentEntry>[0]): Promise<number> {
  return (await post(db, rental, [paymentEntry(payment)])).balanceAfterInPennies;
}

/** The late fee of a delinquency episode: charged once per episode, due the day it is charged. */
export function lateFeeEntry(fee: { chargeUuid: string; amountInPennies: number; day: CalendarDate; delinquencyUuid: string }): NewLedgerEntry {
  return {
    uuid: fee.chargeUuid,
    kind: 'LATE_FEE',
    description: 'Late fee',
    amountInPennies: fee.amountInPennies,
    postedOn: fee.day,
    dueOn: fee.day,
    chargeKey: `LATE_FEE:${fee.delinquencyUuid}`,
  };
}

/** Posts `lateFeeEntry(fee)`. Returns the balance after; null when the episode's fee was charged already. */
export async function postLateFee(db: EntityManager, rental: LockedBalance, fee: Parameters<typeof lateFeeEntry>[0]): Promise<number | null> {
  if (fee.amountInPennies <= 0) return null;
  const { uuids, balanceAfterInPennies } = await post(db, rental, [lateFeeEntry(fee)]);
  return uuids.length === 0 ? null : balanceAfterInPennies;
}

/** The entry that takes what the tenant owes off the balance; null when nothing is owed. */
export function writeOffEntry(rental: LockedBalance, on: CalendarDate): NewLedgerEntry | null {
  if (rental.balanceInPennies <= 0) return null;
  return { kind: 'WRITE_OFF', description: 'Written off', amountInPennies: -rental.balanceInPennies, postedOn: on, dueOn: null };
}

/** Posts `writeOffEntry`; returns the amount written off (0 when nothing is owed). */
export async function writeOff(db: EntityManager, rental: LockedBalance, on: CalendarDate): Promise<number> {
  const entry = writeOffEntry(rental, on);
  if (entry === null) return 0;
  await post(db, rental, [entry]);
  return -entry.amountInPennies;
}

/** The part of an auction's winning bid that pays the debt. Returns the balance after. */
export async function applyAuctionProceeds(db: EntityManager, rental: LockedBalance, amountInPennies: number, on: CalendarDate): Promise<number> {
  if (amountInPennies <= 0) return rental.balanceInPennies;
  const entry: NewLedgerEntry = { kind: 'AUCTION_PROCEEDS', description: 'Auction proceeds', amountInPennies: -amountInPennies, postedOn: on, dueOn: null };
  return (await post(db, rental, [entry])).balanceAfterInPennies;
}

/**
 * A transfer moves the balance to the tenant's new rental: each open charge is carried with its own due date, so
 * days past due go on counting from it; credit is carried as credit. The old rental is left at zero.
 */
export async function transferBalance(db: EntityManager, from: LockedBalance, toRentalRecordUuid: string, on: CalendarDate): Promise<void> {
  const balance = from.balanceInPennies;
  if (balance === 0) return;
  const entries = await ledgerEntries(db, from.rentalRecordUuid);
  const descriptions = new Map(entries.map((entry) => [entry.entryUuid, entry.description]));
  const carried: NewLedgerEntry[] =
    balance > 0
      ? openCharges(asLedgerLines(entries)).map((charge) => ({
          kind: 'TRANSFER_IN',
          description: `Carried from rental ${from.rentalRecordUuid}: ${descriptions.get(charge.entryUuid) ?? 'charge'}`,
          amountInPennies: charge.openInPennies,
          postedOn: on,
          dueOn: charge.dueOn,
        }))
      : [{ kind: 'TRANSFER_IN', description: `Credit carried from rental ${from.rentalRecordUuid}`, amountInPennies: balance, postedOn: on, dueOn: null }];
  await postEntries(db, toRentalRecordUuid, carried);
  await postEntries(db, from.rentalRecordUuid, [
    {
      kind: 'TRANSFER_OUT',
      description: `Carried to rental ${toRentalRecordUuid}`,
      amountInPennies: -balance,
      postedOn: on,
      dueOn: balance < 0 ? on : null,
    },
  ]);
}

/**
 * A period's charges with their promotions' credits, once per rental, period, kind and item type: a rerun posts
 * nothing. The charges go first, then the credits of those written: a charge posted before keeps the credits it got
 * then, even if the terms would give others now. Returns the charges posted now and the balance after.
 */
export async function postPeriodCharges(
  db: EntityManager,
  rental: LockedBalance,
  charges: readonly PeriodCharge[],
  postedOn: CalendarDate,
): Promise<{ posted: PeriodCharge[]; balanceAfterInPennies: number }> {
  const { entries, charges: byEntry } = periodChargeEntries(charges, postedOn);
  const writtenCharges = await postEntries(
    db,
    rental.rentalRecordUuid,
    entries.filter((entry) => entry.appliesTo === undefined),
  );
  const writtenUuids = new Set(writtenCharges.map((entry) => entry.uuid));
  const credits = entries.filter((entry) => entry.appliesTo !== undefined && writtenUuids.has(entry.appliesTo));
  const written = credits.length === 0 ? writtenCharges : [...writtenCharges, ...(await postEntries(db, rental.rentalRecordUuid, credits))];
  return {
    posted: byEntry.filter(({ entryUuid }) => writtenUuids.has(entryUuid)).map(({ charge }) => charge),
    balanceAfterInPennies: written.reduce((balance, entry) => balance + entry.amountInPennies, rental.balanceInPennies),
  };
}
