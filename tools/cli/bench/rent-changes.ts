import type { DeliveredEvent } from '@storage/testing';
import { wallClock } from '@storage/testing';
import type { PublicApi } from './public-api';

interface Rental {
  path: string;
  rentalRecordUuid: string;
  rent: number;
}

/** What ties an answer to its delivery: the rental and the rent it was changed to (each change of a rental has a new amount). */
const changeKey = (rentalRecordUuid: string, rent: number): string => `${rentalRecordUuid} ${rent}`;

/** The delivery's change, from the rent-change payload (spec 6.3). */
export function changeKeyOf(event: DeliveredEvent): string {
  const { unitRental, rentChange } = event as unknown as { unitRental: { rentalRecordUuid: string }; rentChange: { currentRentInPennies: number } };
  return changeKey(unitRental.rentalRecordUuid, rentChange.currentRentInPennies);
}

/**
 * Rent changes through the public API (`changeRent`), over every active rental of a portfolio in turn, each a new
 * amount. Reports each answer's change and the time (`wallClock`) its last byte arrived.
 */
export class RentChanges {
  failures = 0;

  private constructor(
    private readonly api: PublicApi,
    private readonly rentals: Rental[],
    private readonly effectiveDate: string,
    private readonly answered: (key: string, at: number) => void,
  ) {}

  static async of(api: PublicApi, portfolio: string, answered: (key: string, at: number) => void): Promise<RentChanges> {
    const facilities = await api.ok<{ facilityUuid: string }[]>('GET', `/shopping/${portfolio}/v1/facilities`);
    const rentals: Rental[] = [];
    for (const { facilityUuid } of facilities) {
      const path = `/api/${portfolio}/portfolios/v1/facilities/${facilityUuid}/rentalRecords`;
      for (let after: string | null = ''; after !== null;) {
        const page: { rentalRecords: { rentalRecordUuid: string; rentInPennies: number }[]; nextPageAfter: string | null } = await api.ok(
          'GET',
          `${path}?status=ACTIVE&limit=200${after ? `&after=${after}` : ''}`,
        );
        rentals.push(
          ...page.rentalRecords.map((r) => ({ path: `${path}/${r.rentalRecordUuid}/rentChange`, rentalRecordUuid: r.rentalRecordUuid, rent: r.rentInPennies })),
        );
        after = page.nextPageAfter;
      }
    }
    if (rentals.length === 0) throw new Error(`portfolio ${portfolio} has no active rental`);
    // Two days ahead: today or later wherever the facility is.
    const effectiveDate = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    return new RentChanges(api, rentals, effectiveDate, answered);
  }

  get rentalCount(): number {
    return this.rentals.length;
  }

  /** Change `i`: the next rental in turn, its rent one penny up. */
  async send(i: number): Promise<void> {
    const rental = this.rentals[i % this.rentals.length];
    rental.rent += 1;
    const rent = rental.rent;
    const answer = await this.api.call('POST', rental.path, { newRentInPennies: rent, effectiveDate: this.effectiveDate }).catch(() => undefined);
    if (answer?.status === 200) this.answered(changeKey(rental.rentalRecordUuid, rent), wallClock());
    else this.failures += 1;
  }
}
