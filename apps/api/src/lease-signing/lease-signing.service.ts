import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { moveInCharges } from '@storage/domain';
import { promotionTermsOf, type StoredPromotionTerms } from '@storage/rental-ledger';
import { SHOWN_GATE_CODE } from '../rentals/gate-codes';
import { MoveInService } from '../rentals/use-cases/move-in';
import type { EligibleAutoAppliedPromotion } from '../shopping/promotions.dto';
import { PromotionsService } from '../shopping/promotions.service';
import type { LeaseOffer, ShownPromotion, SignedRental } from './lease-page';
import { loadLeaseTerms, type LeaseTerms } from './lease-terms';
import { claimVacantUnit } from './move-in';
import { query, sql } from '@storage/persistence';

/** What a signing link leads to. */
export type LeaseOutcome =
  | ({ kind: 'terms' } & LeaseOffer)
  | { kind: 'signed'; rental: SignedRental; firstTime: boolean }
  | { kind: 'unknown' }
  | { kind: 'expired' }
  | { kind: 'no-vacant-unit' };

/** The lease page: shows a lease's terms, and signing it converts the lead into a tenant. */
@Injectable()
export class LeaseSigningService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(PromotionsService) private readonly promotions: PromotionsService,
    @Inject(MoveInService) private readonly moveIns: MoveInService,
  ) {}

  async view(token: string): Promise<LeaseOutcome> {
    const db = this.dataSource.manager;
    const terms = await loadLeaseTerms(db, token);
    if (terms === null) return { kind: 'unknown' };
    if (terms.status === 'SIGNED') return { kind: 'signed', rental: await signedRental(db, terms.leadUuid), firstTime: false };
    if (terms.status === 'VOID' || terms.expired) return { kind: 'expired' };
    const promotions = await this.shownPromotions(db, terms);
    return { kind: 'terms', terms, promotions, dueAtSigningInPennies: await dueAtSigning(db, terms, promotions) };
  }

  /**
   * Signs in one transaction: the move-in (`MoveInService`) on a vacant unit of the lease's group with the
   * promotions the page shows. Signing a signed lease again changes nothing.
   */
  async sign(token: string): Promise<LeaseOutcome> {
    return this.dataSource.transaction(async (db) => {
      const terms = await loadLeaseTerms(db, token, true);
      if (terms === null) return { kind: 'unknown' };
      if (terms.status === 'SIGNED') return { kind: 'signed', rental: await signedRental(db, terms.leadUuid), firstTime: false };
      if (terms.status === 'VOID' || terms.expired) return { kind: 'expired' };
      // Priced before the unit is taken: occupying it may move the group's web rate, which the page priced on.
      const promotions = await this.shownPromotions(db, terms);
      const unitUuid = await claimVacantUnit(db, terms.unitGroupUuid);
      if (unitUuid === null) return { kind: 'no-vacant-unit' };
      await this.moveIns.moveIn(db, { terms, unitUuid, promotions });
      return { kind: 'signed', rental: await signedRental(db, terms.leadUuid), firstTime: true };
    });
  }

  /**
   * The auto-applied promotions of the lease's unit group (operation 1's winners) as the page lists them and
   * signing records them.
   */
  private async shownPromotions(db: EntityManager, terms: LeaseTerms): Promise<ShownPromotion[]> {
    const request = { facilityUuids: terms.facilityUuid, unitGroupUuids: [terms.unitGroupUuid], isForBusiness: terms.isForBusiness };
    const [group] = await this.promotions.eligible(terms.portfolioUuid, request, db);
    if (group === undefined) return [];
    const shown = (winner: EligibleAutoAppliedPromotion, appliesTo: string): ShownPromotion => ({
      promotionUuid: winner.promotionUuid,
      name: winner.promotionName,
      discountInPennies: winner.highestDiscountAmount,
      appliesTo,
    });
    const rent = group.bestAutoAppliedPromotion;
    return [...(rent ? [shown(rent, 'rent')] : []), ...group.serviceWinners.map((winner) => shown(winner, winner.itemTypeName))];
  }
}

/** The converted lead's current rental (a transfer may have moved it since signing), its gate code as operation 14 shows it. */
async function signedRental(db: EntityManager, leadUuid: string): Promise<SignedRental> {
  const rows = await query(
    db,
    sql<
      SignedRental,
      [string]
    >(`SELECT f.name AS "facilityName", u.name AS "unitName", u.floor, ${SHOWN_GATE_CODE} AS "gateAccessCode", r.start_date::text AS "startDate",
            r.rent_in_pennies AS "rentInPennies", r.next_due_date::text AS "nextDueDate",
            rental_ledger_move_in_due(r.uuid) AS "amountDueAtMoveInInPennies", r.balance_in_pennies AS "balanceInPennies"
       FROM leads l
       JOIN rental_records r ON r.uuid = l.converted_rental_record_uuid
       JOIN units u ON u.uuid = r.unit_uuid
       JOIN facilities f ON f.uuid = r.facility_uuid
       LEFT JOIN gate_codes g ON g.rental_record_uuid = r.uuid
      WHERE l.uuid = $1`),
    [leadUuid],
  );
  const rental = rows[0];
  if (rental === undefined) throw new Error(`signed lease of lead ${leadUuid} has no converted rental`);
  return rental;
}

/** What signing now would charge: the first period of the lease's rent, its default coverage and the promotions shown. */
async function dueAtSigning(db: EntityManager, terms: LeaseTerms, shown: ShownPromotion[]): Promise<number> {
  const stored = await query(
    db,
    sql<
      {
        terms: StoredPromotionTerms;
      },
      [string[]]
    >(`SELECT json_build_object('uuid', p.uuid, 'name', p.name, 'itemTypeUuid', p.item_type_uuid, 'discountType', p.discount_type,
                              'percentage', p.percentage::text, 'amountInPennies', p.amount_in_pennies, 'monthStarts', p.month_starts,
                              'durationInMonths', p.duration_in_months) AS terms
       FROM unnest($1::uuid[]) WITH ORDINALITY AS s(uuid, ord) JOIN promotions p ON p.uuid = s.uuid ORDER BY s.ord`),
    [shown.map((promotion) => promotion.promotionUuid)],
  );
  const coverage = terms.coverage;
  return moveInCharges(
    {
      rentInPennies: terms.rentInPennies,
      rentChanges: [],
      services:
        coverage === null
          ? []
          : [{ description: coverage.itemTypeName, amount: coverage.premiumInPennies, feeType: 'FIXED_AMOUNT', itemTypeUuid: coverage.itemTypeUuid }],
      coverage: null,
      promotions: stored.map((row) => promotionTermsOf(row.terms)),
    },
    terms.facilityToday,
  ).amountDueInPennies;
}
