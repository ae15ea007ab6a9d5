import type { Pennies } from '../money';
import type { Promotion } from './promotion';
import { promotionAmount } from './promotion-amount';
import { isPromotionEligible, type PromotionContext } from './promotion-eligibility';

/** A recurring service's price list entry, the base of DISCOUNTED_SERVICE promotions. */
export interface ItemType {
  itemTypeUuid: string;
  name: string;
  priceInPennies: Pennies;
}

/** The winning promotion and its amount (spec 2.2 without the facility and unit group the caller adds). */
export interface PromotionWinner {
  promotionUuid: string;
  promotionName: string;
  highestDiscountAmount: Pennies;
}

/** Spec 2.3: a DISCOUNTED_SERVICE winner with the item type it discounts. */
export interface ServicePromotionWinner extends PromotionWinner {
  itemTypeUuid: string;
  itemTypeName: string;
}

export interface BestPromotionsInput {
  unitGroupUuid: string;
  /** The unit group's current web rate, the base of RENT promotions. */
  webRateInPennies: Pennies;
  promotions: readonly Promotion[];
  itemTypes: ReadonlyMap<string, ItemType> | readonly ItemType[];
  context: PromotionContext;
}

export interface BestPromotions {
  bestRent: PromotionWinner | null;
  /** One per item type that has an eligible promotion with a positive amount, ordered by itemTypeUuid. */
  serviceWinners: ServicePromotionWinner[];
}

/**
 * The best auto-applied promotions of one unit group (operation 1): the RENT promotion with the largest
 * amount on the web rate, and per item type the DISCOUNTED_SERVICE promotion with the largest amount on
 * the item type's price. Ties go to the earlier createdAt, then the smaller uuid. A promotion worth
 * nothing (amount 0) never wins, and a service promotion whose item type is not in `itemTypes` is skipped
 * because it has no price.
 */
export function bestPromotionsForUnitGroup(input: BestPromotionsInput): BestPromotions {
  const itemTypes = indexItemTypes(input.itemTypes);
  let bestRent: Candidate | null = null;
  const bestByItemType = new Map<string, { itemType: ItemType; best: Candidate }>();

  for (const promotion of input.promotions) {
    if (!isPromotionEligible(promotion, input.unitGroupUuid, input.context)) continue;
    const family = promotion.family;
    switch (family.kind) {
      case 'RENT':
        bestRent = better(bestRent, candidate(promotion, input.webRateInPennies));
        break;
      case 'DISCOUNTED_SERVICE': {
        const key = family.itemTypeUuid.toLowerCase();
        const itemType = itemTypes.get(key);
        if (itemType === undefined) break;
        const best = better(bestByItemType.get(key)?.best ?? null, candidate(promotion, itemType.priceInPennies));
        if (best !== null) bestByItemType.set(key, { itemType, best });
        break;
      }
    }
  }

  const serviceWinners = [...bestByItemType.entries()]
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([, { itemType, best }]): ServicePromotionWinner => ({
      ...toWinner(best),
      itemTypeUuid: itemType.itemTypeUuid,
      itemTypeName: itemType.name,
    }));
  return { bestRent: bestRent === null ? null : toWinner(bestRent), serviceWinners };
}

interface Candidate {
  promotion: Promotion;
  amount: Pennies;
}

function candidate(promotion: Promotion, rateInPennies: Pennies): Candidate {
  return { promotion, amount: promotionAmount(promotion, rateInPennies) };
}

/** The better of the two, or null when neither is worth anything. */
function better(current: Candidate | null, challenger: Candidate): Candidate | null {
  if (challenger.amount <= 0) return current;
  if (current === null) return challenger;
  if (challenger.amount !== current.amount) return challenger.amount > current.amount ? challenger : current;
  const byAge = challenger.promotion.createdAt.getTime() - current.promotion.createdAt.getTime();
  if (byAge !== 0) return byAge < 0 ? challenger : current;
  return compareStrings(challenger.promotion.uuid, current.promotion.uuid) < 0 ? challenger : current;
}

function toWinner({ promotion, amount }: Candidate): PromotionWinner {
  return { promotionUuid: promotion.uuid, promotionName: promotion.name, highestDiscountAmount: amount };
}

// Keyed by lower-cased uuid so a promotion's target and the price list agree whatever their case.
function indexItemTypes(itemTypes: BestPromotionsInput['itemTypes']): Map<string, ItemType> {
  const list = isItemTypeList(itemTypes) ? itemTypes : [...itemTypes.values()];
  return new Map(list.map((itemType) => [itemType.itemTypeUuid.toLowerCase(), itemType]));
}

function isItemTypeList(itemTypes: BestPromotionsInput['itemTypes']): itemTypes is readonly ItemType[] {
  return Array.isArray(itemTypes);
}

/** Code-unit order, independent of the locale. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
