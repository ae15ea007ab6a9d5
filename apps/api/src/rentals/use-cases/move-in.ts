import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { query, sql } from '@storage/persistence';
import { billRentals } from '@storage/rental-ledger';
import { lockTenant, moveIn } from '@storage/rentals';
import { recordAppliedPromotions } from '../../lease-signing/applied-promotions';
import type { ShownPromotion } from '../../lease-signing/lease-page';
import type { LeaseTerms } from '../../lease-signing/lease-terms';
import { SERVICE_NAME } from '../../service-info';
import { LifecyclePublisher } from '../lifecycle-publisher';

/** A lease being signed: its terms (the lease locked), the vacant unit claimed for it and the promotions its page showed. */
export interface SignedLease {
  terms: LeaseTerms;
  unitUuid: string;
  promotions: ShownPromotion[];
}

const CONVERT_LEAD = sql<never, [leadUuid: string, rentalRecordUuid: string]>(
  `UPDATE leads SET status = 'CONVERTED', converted_rental_record_uuid = $2, updated_at = now() WHERE uuid = $1`,
);
const SIGN_LEASE = sql<never, [leaseUuid: string, rentalRecordUuid: string]>(
  `UPDATE leases SET status = 'SIGNED', signed_at = now(), rental_record_uuid = $2 WHERE uuid = $1`,
);

/**
 * Move-in: the tenant's rental on the claimed unit with what the lease promised, its first period billed, the lead
 * converted, the lease signed and moved-in in the outbox. In the lease signing's transaction, which locked the lease
 * and claimed the unit: signing is the move-in, and the page's checks (token, expiry, a vacant unit) are the
 * signing's.
 */
@Injectable()
export class MoveInService {
  constructor(@Inject(LifecyclePublisher) private readonly events: LifecyclePublisher) {}

  /** Moves the lease's tenant in; answers the new rental's uuid. */
  async moveIn(db: EntityManager, { terms, unitUuid, promotions }: SignedLease): Promise<string> {
    // A returning tenant's other rentals: moved-in shows the tenant's balance, with theirs.
    await lockTenant(db, terms.personUuid);
    const rentalUuid = await moveIn(db, { ...terms, unitUuid, startDate: terms.facilityToday });
    await recordAppliedPromotions(db, rentalUuid, terms.facilityToday, promotions);
    // The first period's charges, due today, posted with the rental (its next due date moves past them).
    await billRentals(db, [rentalUuid], terms.facilityToday, { postedOn: terms.facilityToday, source: SERVICE_NAME });
    await query(db, CONVERT_LEAD, [terms.leadUuid, rentalUuid]);
    await query(db, SIGN_LEASE, [terms.leaseUuid, rentalUuid]);
    await this.events.publish(db, 'moved-in', rentalUuid, {}, null);
    return rentalUuid;
  }
}
