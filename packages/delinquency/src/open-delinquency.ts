import type { RentalDelinquencyStatus } from '@storage/domain';
import { query, sql, type Queryable } from '@storage/persistence';

/**
 * The statuses of a delinquency episode still open: money past its grace days and not settled, whose stage,
 * late fee, gate code suspension and auction belong to this rental. CURRENT and PAID have none; WRITTEN_OFF
 * closed it (the debt gone, the gate code restored).
 */
const OPEN_DELINQUENCY_STATUSES = ['OVERDUE', 'OVERLOCK', 'LIEN', 'AUCTION', 'PAUSED'] as const satisfies readonly RentalDelinquencyStatus[];
export type OpenDelinquencyStatus = (typeof OPEN_DELINQUENCY_STATUSES)[number];

const OPEN_STATUS = sql<{ status: OpenDelinquencyStatus }, [string, readonly string[]]>(
  'SELECT status FROM delinquencies WHERE rental_record_uuid = $1 AND status::text = ANY($2)',
);

/**
 * The rental's open delinquency status, or null. Read after the caller locked the rental row, as every writer
 * of delinquency does first, so it cannot change before the caller's transaction ends.
 */
export async function openDelinquencyStatus(db: Queryable, rentalRecordUuid: string): Promise<OpenDelinquencyStatus | null> {
  const [open] = await query(db, OPEN_STATUS, [rentalRecordUuid, OPEN_DELINQUENCY_STATUSES]);
  return open?.status ?? null;
}
