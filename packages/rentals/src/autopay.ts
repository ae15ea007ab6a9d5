import type { EntityManager } from 'typeorm';

/**
 * A rental's autopay payment method, which the scheduler's business day charges on each due date (null: off).
 * `is_autopay_enabled` is generated from it, so this is its only writer.
 */
export async function setAutopay(db: EntityManager, rentalRecordUuid: string, paymentMethod: string | null): Promise<void> {
  await db.query('UPDATE rental_records SET autopay_payment_method = $2, updated_at = now() WHERE uuid = $1', [rentalRecordUuid, paymentMethod]);
}
