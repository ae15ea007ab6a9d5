import type { CalendarDate } from '../calendar-date';
import type { Pennies } from '../money';

/**
 * A ledger entry as the money rules see it. Every positive entry has a due date: charges, and refunds too (due the
 * day they are paid out, so a refund beyond the credit is owed from then). A credit that nets one charge (a
 * promotion's discount) is negative and names it in `appliesTo`. Other credits (payments, transfer credits,
 * write-offs) have neither and form the pool that covers charges, oldest first.
 */
export interface LedgerLine {
  entryUuid: string;
  amountInPennies: number;
  dueOn: CalendarDate | null;
  appliesTo: string | null;
}

export interface OpenCharge {
  entryUuid: string;
  dueOn: CalendarDate;
  openInPennies: Pennies;
}

/** The balance is the sum of the entries, always: positive is owed, negative is credit. */
export function balanceOf(lines: readonly LedgerLine[]): number {
  return lines.reduce((sum, line) => sum + line.amountInPennies, 0);
}

/**
 * The charges not yet covered, oldest due first (ties in posting order). Each charge is netted by its own
 * credits; the pool of payments and other credits then covers the oldest first. Their sum is max(0, balance).
 */
export function openCharges(lines: readonly LedgerLine[]): OpenCharge[] {
  const netted = new Map<string, number>();
  for (const line of lines) {
    if (line.appliesTo !== null) netted.set(line.appliesTo, (netted.get(line.appliesTo) ?? 0) + line.amountInPennies);
  }
  let pool = 0;
  const charges: OpenCharge[] = [];
  for (const line of lines) {
    if (line.appliesTo !== null) continue;
    if (line.dueOn === null) {
      if (line.amountInPennies > 0) throw new RangeError(`Ledger entry ${line.entryUuid} adds to the balance without a due date`);
      pool -= line.amountInPennies;
      continue;
    }
    const net = line.amountInPennies + (netted.get(line.entryUuid) ?? 0);
    // A credit larger than its charge (never written by the billing rules) still counts, as unapplied money.
    if (net <= 0) pool -= net;
    else charges.push({ entryUuid: line.entryUuid, dueOn: line.dueOn, openInPennies: net });
  }
  // A stable sort keeps posting order between charges due on the same day.
  charges.sort((a, b) => (a.dueOn < b.dueOn ? -1 : a.dueOn > b.dueOn ? 1 : 0));
  const open: OpenCharge[] = [];
  for (const charge of charges) {
    const covered = Math.min(Math.max(pool, 0), charge.openInPennies);
    pool -= covered;
    if (charge.openInPennies > covered) open.push({ ...charge, openInPennies: charge.openInPennies - covered });
  }
  return open;
}

/** Where days past due count from: the due date of the oldest charge not covered, or null when none is open. */
export function pastDueSince(lines: readonly LedgerLine[]): CalendarDate | null {
  return openCharges(lines)[0]?.dueOn ?? null;
}

/** What a payment settles, oldest charge first, and what is left over as credit. */
export function allocatePayment(lines: readonly LedgerLine[], amountInPennies: Pennies): { settles: OpenCharge[]; unappliedInPennies: Pennies } {
  const settles: OpenCharge[] = [];
  let left = amountInPennies;
  for (const charge of openCharges(lines)) {
    if (left === 0) break;
    const part = Math.min(left, charge.openInPennies);
    settles.push({ ...charge, openInPennies: part });
    left -= part;
  }
  return { settles, unappliedInPennies: left };
}
