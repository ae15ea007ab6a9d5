import { ConflictException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { openDelinquencyStatus } from '@storage/delinquency';
import { InvalidRequestException, TypedProblemException } from '@storage/platform';
import { transferBalance } from '@storage/rental-ledger';
import { setUnitStatus } from '@storage/unit-occupancy';
import { carryAppliedPromotions } from '../lease-signing/applied-promotions';
import { moveGateCode } from './gate-codes';
import { LifecyclePublisher } from './lifecycle-publisher';
import { lockActiveRental, type LockedRental, type RentalRef } from './rental-lock';
import { rentalView, type TransferResult } from './rentals.dto';

interface TargetUnit {
  uuid: string;
  unitGroupUuid: string;
  status: string;
  webRateInPennies: number;
}

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

  async transfer(ref: RentalRef, newUnitUuid: string): Promise<TransferResult> {
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
      const today = old.facilityToday;
      const newRentalUuid = await openRental(db, old, target);
      await carryOver(db, old.uuid, newRentalUuid, today);
      await transferBalance(db, { rentalRecordUuid: old.uuid, balanceInPennies: old.balanceInPennies }, newRentalUuid, today);
      await db.query(`UPDATE rental_records SET status = 'MOVED_OUT', end_date = $2, updated_at = now() WHERE uuid = $1`, [old.uuid, today]);
      await setUnitStatus(db, old.unitUuid, 'vacant');
      await setUnitStatus(db, target.uuid, 'occupied');
      // The balance moved with the tenant; the part of it that is credit is what the transfer credits.
      const transferCreditAmountInPennies = Math.max(0, -old.balanceInPennies);
      const transfer = {
        transferDate: today,
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

/** The target unit, locked: 400 when it is no unit of this facility, 409 when it is not vacant. */
async function lockTargetUnit(db: EntityManager, facilityUuid: string, unitUuid: string): Promise<TargetUnit> {
  const rows: TargetUnit[] = await db.query(
    `SELECT u.uuid, u.unit_group_uuid AS "unitGroupUuid", u.status, g.current_web_rate_in_pennies AS "webRateInPennies"
       FROM units u JOIN unit_groups g ON g.uuid = u.unit_group_uuid
      WHERE u.uuid = $1 AND u.facility_uuid = $2
        FOR UPDATE OF u`,
    [unitUuid, facilityUuid],
  );
  const unit = rows[0];
  if (unit === undefined) throw new InvalidRequestException([{ field: 'newUnitUuid', message: 'newUnitUuid is not a unit of this facility' }]);
  if (unit.status !== 'vacant') throw new ConflictException(`Unit ${unitUuid} is not vacant.`);
  return unit;
}

async function openRental(db: EntityManager, old: LockedRental, target: TargetUnit): Promise<string> {
  const rows: { uuid: string }[] = await db.query(
    `INSERT INTO rental_records (portfolio_uuid, facility_uuid, unit_uuid, unit_group_uuid, person_uuid, lead_uuid, rent_in_pennies,
                                 billing_day_of_month, next_due_date, start_date, tenancy_start_date, autopay_payment_method)
     SELECT portfolio_uuid, facility_uuid, $2, $3, person_uuid, lead_uuid, $4, billing_day_of_month, next_due_date,
            $5, coalesce(tenancy_start_date, start_date), autopay_payment_method
       FROM rental_records WHERE uuid = $1
     RETURNING uuid`,
    [old.uuid, target.uuid, target.unitGroupUuid, target.webRateInPennies, old.facilityToday],
  );
  return rows[0].uuid;
}

/** What belongs to the tenant rather than the unit moves to the new rental; running services and coverage restart there today. */
async function carryOver(db: EntityManager, oldUuid: string, newUuid: string, today: string): Promise<void> {
  await db.query(
    `INSERT INTO rental_services (rental_record_uuid, item_type_uuid, description, amount_in_pennies, fee_type, start_date)
     SELECT $2, item_type_uuid, description, amount_in_pennies, fee_type, $3 FROM rental_services
      WHERE rental_record_uuid = $1 AND (end_date IS NULL OR end_date > $3)
      ORDER BY start_date, uuid`,
    [oldUuid, newUuid, today],
  );
  await db.query('UPDATE rental_services SET end_date = $2 WHERE rental_record_uuid = $1 AND (end_date IS NULL OR end_date > $2)', [oldUuid, today]);
  await db.query(
    `INSERT INTO coverage_enrollments (facility_uuid, rental_record_uuid, coverage_uuid, premium_in_pennies, coverage_amount_in_pennies, start_date, partner_coverage_id)
     SELECT facility_uuid, $2, coverage_uuid, premium_in_pennies, coverage_amount_in_pennies, now(), partner_coverage_id
       FROM coverage_enrollments WHERE rental_record_uuid = $1 AND end_date IS NULL`,
    [oldUuid, newUuid],
  );
  await db.query('UPDATE coverage_enrollments SET end_date = now(), updated_at = now() WHERE rental_record_uuid = $1 AND end_date IS NULL', [oldUuid]);
  // Promised at signing, so the promise follows the tenant unchanged; the old rental keeps its record of it.
  await carryAppliedPromotions(db, oldUuid, newUuid);
  await db.query('UPDATE vehicles SET rental_record_uuid = $2 WHERE rental_record_uuid = $1', [oldUuid, newUuid]);
  await moveGateCode(db, oldUuid, newUuid);
  // Operation 3 shows the converted lead where the tenant is now.
  await db.query('UPDATE leads SET converted_rental_record_uuid = $2, updated_at = now() WHERE converted_rental_record_uuid = $1', [oldUuid, newUuid]);
}
