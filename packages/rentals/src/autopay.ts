import type { EntityManager } from 'typeorm';
import { query, sql } from '@storage/persistence';

const SET_AUTOPAY = sql<never, [string, string | null]>('UPDATE rental_records SET autopay_payment_method = $2, updated_at = now() WHERE uuid = $1');

/**
 * A rental's autopay payment method, which the scheduler's business day charges on each due date (null: off).
 * `is_autopay_enabled` is generated from it, so this is its only writer.
 */
export async function setAutopay(db: EntityManager, rentalRecordUuid: string, paymentMethod: string | null): Promise<void> {
  await query(db, SET_AUTOPAY, [rentalRecordUuid, paymentMethod]);
}
