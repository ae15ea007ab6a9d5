import { ConflictException, Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { query, sql } from '@storage/persistence';
import { InvalidRequestException } from '@storage/platform';
import { addService, endService } from '@storage/rentals';
import { notFound } from '../../common';
import { LifecyclePublisher } from '../lifecycle-publisher';
import { lockActiveRental, type ActiveRental, type RentalPath } from '../rental-lock';
import { rentalView, type RentalView } from '../rentals.dto';

interface ServiceItem {
  name: string;
  priceInPennies: number;
  feeType: string;
  recurringService: boolean;
}

const SERVICE_ITEM = sql<ServiceItem, [string, string]>(
  `SELECT name, price_in_pennies AS "priceInPennies", fee_type AS "feeType", (kind = 'SERVICE' AND is_recurring) AS "recurringService"
       FROM item_types WHERE uuid = $1 AND portfolio_uuid = $2`,
);
const ACTIVE_SERVICE = sql<{ uuid: string }, [string, string, string]>(
  'SELECT uuid FROM rental_services WHERE rental_record_uuid = $1 AND item_type_uuid = $2 AND (end_date IS NULL OR end_date > $3)',
);

/** Recurring services added to or removed from an active rental, from today; each change emits its before and after. */
@Injectable()
export class RentalServicesService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(LifecyclePublisher) private readonly events: LifecyclePublisher,
  ) {}

  async add(ref: RentalPath, itemTypeUuid: string): Promise<RentalView> {
    return this.change(ref, async (db, rental) => {
      const item = await serviceItem(db, ref.portfolioUuid, itemTypeUuid);
      if (await activeServiceUuid(db, rental, itemTypeUuid)) throw new ConflictException(`The rental already has service ${itemTypeUuid}.`);
      await addService(db, rental.uuid, {
        itemTypeUuid,
        description: item.name,
        amountInPennies: item.priceInPennies,
        feeType: item.feeType,
        startDate: rental.facilityToday,
      });
    });
  }

  async remove(ref: RentalPath, itemTypeUuid: string): Promise<RentalView> {
    return this.change(ref, async (db, rental) => {
      const serviceUuid = await activeServiceUuid(db, rental, itemTypeUuid);
      if (serviceUuid === null) throw notFound('Service of the rental with item type', itemTypeUuid);
      await endService(db, serviceUuid, rental.facilityToday);
    });
  }

  private change(ref: RentalPath, apply: (db: EntityManager, rental: ActiveRental) => Promise<void>): Promise<RentalView> {
    return this.dataSource.transaction(async (db) => {
      const rental = await lockActiveRental(db, ref);
      const before = await this.events.context(db, rental.uuid);
      await apply(db, rental);
      const today = rental.facilityToday;
      const reported = await this.events.publish(
        db,
        'recurring-service-change',
        rental.uuid,
        (after) => ({
          recurringServiceChange: {
            previousAdditionalServicesFees: before.base.billingTemplate.additionalServicesAndFees,
            currentAdditionalServicesFees: after.base.billingTemplate.additionalServicesAndFees,
            serviceChangeDate: today,
            serviceChangeEffectiveDate: today,
          },
        }),
        rental.lastEventAt,
      );
      return rentalView(reported, 'ACTIVE');
    });
  }
}

/** A recurring service item type of the portfolio; anything else is the caller's field error. */
async function serviceItem(db: EntityManager, portfolioUuid: string, itemTypeUuid: string): Promise<ServiceItem> {
  const rows = await query(db, SERVICE_ITEM, [itemTypeUuid, portfolioUuid]);
  const item = rows[0];
  if (item === undefined) throw new InvalidRequestException([{ field: 'itemTypeUuid', message: 'itemTypeUuid is not an item type of this portfolio' }]);
  if (!item.recurringService) throw new InvalidRequestException([{ field: 'itemTypeUuid', message: 'itemTypeUuid is not a recurring service' }]);
  return item;
}

/** The rental's service of this item type still running today, if any. */
async function activeServiceUuid(db: EntityManager, rental: ActiveRental, itemTypeUuid: string): Promise<string | null> {
  const rows = await query(db, ACTIVE_SERVICE, [rental.uuid, itemTypeUuid, rental.facilityToday]);
  return rows[0]?.uuid ?? null;
}
