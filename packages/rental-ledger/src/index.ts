// The rental's money: only this package writes rental_ledger_entries (and, through its trigger, rental_records.balance_in_pennies).
export {
  asLedgerLines,
  entriesJson,
  periodChargeEntries,
  periodChargeKey,
  ledgerEntries,
  ledgerPage,
  type LedgerStatementEntry,
  LEDGER_ENTRY_KINDS,
  postEntries,
  entriesOfRows,
  postEntriesQuery,
  type LedgerEntry,
  type LedgerEntryKind,
  type NewLedgerEntry,
  type PostedEntry,
} from './ledger-entries';
export {
  applyAuctionProceeds,
  lateFeeEntry,
  postLateFee,
  paymentEntry,
  postPeriodCharges,
  recordPayment,
  transferBalance,
  writeOff,
  writeOffEntry,
  type LockedBalance,
} from './rental-money';
export { billRentals, promotionTermsOf, type BilledRentals, type StoredPromotionTerms } from './billing';
export { balanceAfterPayment, recordedPayment, recordPayments, type PaymentToRecord, type RecordedPayment } from './payments';
export { postCurrentRentInBulk, type RentalOwingCurrentPeriod } from './bulk-rent-charges';
export { Payment } from './entities/payment.entity';
