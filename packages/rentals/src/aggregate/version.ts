/*
 * A rental's version, for the writes that read without the lock and write only if nothing changed since (the
 * api's batched rent changes and payments, billing, autopay): the rental row's xmin as read (`xmin::text`),
 * compared by the write under its row lock (`r.xmin = i.version::xid`). Every writer of a rental updates its row
 * (lifecycle actions, payments, rent changes, the ledger's trigger moving its balance), so an unchanged xmin means
 * what was read is still the rental's. Billing adds its own guard (the next due date it charged from), which says
 * which periods it read, not whether the rental changed.
 *
 * The business day decides from more than the rental row (its delinquency, tenant, auctions, services, the
 * tenant's other rentals, the facility's date), so its version is another one, named for it: STATE_VERSION of
 * @storage/delinquency, the xmins of all those rows. It is not this one widened: the api's writes would then read
 * and compare six more rows per request for changes that cannot alter a rent change or a payment.
 */

/** A rental row's version: its xmin as read, as text. */
export type RentalVersion = string;
