import { ConflictException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { openDelinquencyStatus } from '@storage/delinquency';
import { query, sql } from '@storage/persistence';
import { InvalidRequestException, TypedProblemException } from '@storage/platform';
import { transferBalance } from '@storage/rental-ledger';
import { transfer as transferRental } from '@storage/rentals';
import { carryAppliedPromotions } from '../../lease-signing/applied-promotions';
import { LifecyclePublisher } from '../lifecycle-publisher';
import { lockActiveRental, type ActiveRental, type RentalPath } from '../rental-lock';
import { rentalView, type TransferResult } from '../rentals.dto';

interface TargetUnit {
  uuid: string;
  unitGroupUuid: string;
  status: string;
  webRateInPennies: number;
}

const MOVE_CONVERTED_LEAD = sql<never, [string, string]>(
  'UPDATE leads SET converted_rental_record_uuid = $2, updated_at = now() WHERE converted_rental_record_uuid = $1',
);
const LOCK_TARGET_UNIT = sql<TargetUnit, [string, string]>(
  `SELECT u.uuid, u.unit_group_uuid AS "unitGroupUuid", u.status, g.current_web_rate_in_pennies AS "webRateInPennies"
       FROM units u JOIN unit_groups g ON g.uuid = u.unit_group_uuid
      WHERE u.uuid = $1 AND u.facility_uuid = $2
        FOR UPDATE OF u`,
);

/** The `type` of the 409 refusing to transfer a delinquent rental (documented on the route). */
export const RENTAL_DELINQUENT_PROBLEM = 'tag:storage-rental,2026:problems/rental-delinquent';

/**
 * Transfer: a new rental on a vacant unit of the same facility at its group's current web rate, the old
 * rental closed. The tenant keeps billing cycle, balance (the ledger carries each open charge with its due
 * date), services, coverage, promotions, vehicles and gate code.
 *
 * Refused while the rental's delinquency is open (OVERDUE to AUCTION, or PAUSED): its stage, late fee, gate code
 * suspension and auction belong to this rental, and moving the debt without them would give the tenant a working
 * gate code and restart the stages (a second late fee). Within the grace days the open charges move with their
 * due dates, so the new rental becomes OVERDUE the day the old one would have.
 */
@Injectable()
export class TransferService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(LifecyclePublisher) private readonly events: LifecyclePublisher,
  ) {}

  async transfer(ref: RentalPath, newUnitUuid: string): Promise<TransferResult> {
    return this.dataSource.transaction(async (db) => {
      const old = await lockActiveRental(db, ref);
      const target = await lockTargetUnit(db, old.facilityUuid, newUnitUuid);
      const delinquency = await openDelinquencyStatus(db, old.uuid);
      if (delinquency !== null) {
        throw new TypedProblemException(
          RENTAL_DELINQUENT_PROBLEM,
          'Rental is delinquent',
          HttpStatus.CONFLICT,
          `Rental record ${old.uuid} is delinquent (${delinquency}): it can be transferred once paid (PAID) or written off.`,
        );
      }
      const newRentalUuid = await moveTenancy(db, old, target);
      // The balance moved with the tenant; the part of it that is credit is what the transfer credits.
      const transferCreditAmountInPennies = Math.max(0, -old.balanceInPennies);
      const transfer = {
        transferDate: old.facilityToday,
        oldUnitRentalRecordUuid: old.uuid,
        oldUnitUuid: old.unitUuid,
        oldUnitRentAmountInPennies: old.rentInPennies,
        newUnitRentAmountInPennies: target.webRateInPennies,
        transferCreditAmountInPennies,
      };
      // After the old rental's last event, so the tenant's events keep their order in time.
      const context = await this.events.publish(db, 'transfer', newRentalUuid, { transfer }, old.lastEventAt);
      return { ...rentalView(context, 'ACTIVE'), oldRentalRecordUuid: old.uuid, transferCreditAmountInPennies };
    });
  }
}

/**
 * The tenancy moved to the target unit, whole, in the caller's transaction: the rental's own rows (`transfer` of
 * @storage/rentals: a new rental keeping the tenant's billing, services, coverage, vehicles and gate code; the old
 * one ended), the promotions as signed for, the balance (each open charge with its due date, or the credit) and
 * the converted lead. Nothing else moves a tenancy: a part of it alone would leave the tenant's money or promise on
 * a moved-out rental. Answers the new rental's uuid.
 */
async function moveTenancy(db: EntityManager, old: ActiveRental, target: TargetUnit): Promise<string> {
  const today = old.facilityToday;
  const newRentalUuid = await transferRental(db, {
    rentalRecordUuid: old.uuid,
    unitUuid: old.unitUuid,
    toUnitUuid: target.uuid,
    toUnitGroupUuid: target.unitGroupUuid,
    rentInPennies: target.webRateInPennies,
    on: today,
  });
  // Promised at signing, so the promise follows the tenant unchanged; the old rental keeps its record of it.
  await carryAppliedPromotions(db, old.uuid, newRentalUuid);
  await transferBalance(db, { rentalRecordUuid: old.uuid, balanceInPennies: old.balanceInPennies }, newRentalUuid, today);
  // Operation 3 shows the converted lead where the tenant is now.
  await query(db, MOVE_CONVERTED_LEAD, [old.uuid, newRentalUuid]);
  return newRentalUuid;
}

/** The target unit, locked: 400 when it is no unit of this facility, 409 when it is not vacant. */
async function lockTargetUnit(db: EntityManager, facilityUuid: string, unitUuid: string): Promise<TargetUnit> {
  const rows = await query(db, LOCK_TARGET_UNIT, [unitUuid, facilityUuid]);
  const unit = rows[0];
  if (unit === undefined) throw new InvalidRequestException([{ field: 'newUnitUuid', message: 'newUnitUuid is not a unit of this facility' }]);
  if (unit.status !== 'vacant') throw new ConflictException(`Unit ${unitUuid} is not vacant.`);
  return unit;
}
