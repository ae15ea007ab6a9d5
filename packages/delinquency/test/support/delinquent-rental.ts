import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { addDays, type CalendarDate, type DelinquencySchedule } from '@storage/domain';
import { postEntries } from '@storage/rental-ledger';
import { importRentals } from '@storage/rentals';
import { insertRentalParents } from '@storage/testing';
import type { AdvanceResult, BusinessDayAdvancer } from '../../src';

/** A tenant's only rental, brought in by its owner, owing `owed` of rent due on `dueOn` through its ledger. */
export async function rentalOwing(db: DataSource, owed: number, dueOn: CalendarDate): Promise<string> {
  const p = await insertRentalParents(db);
  const uuid = randomUUID();
  await db.transaction(async (m) => {
    await importRentals(m, [
      {
        uuid,
        portfolioUuid: p.portfolioUuid,
        facilityUuid: p.facilityUuid,
        unitUuid: p.unitUuid,
        unitGroupUuid: p.unitGroupUuid,
        personUuid: p.personUuid,
        leadUuid: null,
        rentInPennies: owed,
        startDate: '2025-01-01',
        nextDueDate: addDays(dueOn, 31),
        autopayPaymentMethod: null,
        gateCode: { uuid: randomUUID(), code: String(Math.floor(Math.random() * 1e8)) },
        services: [],
        vehicles: [],
        coverageEnrollments: [],
      },
    ]);
    await postEntries(m, uuid, [{ kind: 'RENT', description: 'Rent', amountInPennies: owed, postedOn: dueOn, dueOn }]);
  });
  return uuid;
}

/** One business-day run of `businessDate` over the rentals, as the scheduler's worker makes it. */
export async function advance(
  advancer: BusinessDayAdvancer,
  uuids: string[],
  businessDate: CalendarDate,
  schedule: DelinquencySchedule,
): Promise<AdvanceResult> {
  const worker = await advancer.worker();
  try {
    return await worker.advance(uuids, businessDate, schedule);
  } finally {
    await worker.release();
  }
}
