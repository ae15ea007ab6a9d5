import {
  addDays,
  billingDayFor,
  COVERAGE_PROVIDERS,
  nextDueDateAfter,
  currentRates,
  occupancyPercent,
  PRIVATE_COVERAGE_UUID,
  type OccupancyBand,
} from '@storage/domain';
import { periodChargeKey, type NewLedgerEntry } from '@storage/rental-ledger';
import type { ExistingCoverageEnrollment, ExistingRental } from '@storage/rentals';
import type { OperatingHours } from '../model/facility.entity';
import { hashSigningToken } from '../lease-signing/signing-token';
import type { FacilityEntry, PortfolioFile } from '../onboarding/import/portfolio-file';
import type { Shoppers } from './demo-shoppers';
import { seedUuid } from './seed-uuid';

/** The demo portfolio; ids come from names, so each run produces the same data. */
export const DEMO_PORTFOLIO_ID = 'demo';
export const DEMO_PORTFOLIO_UUID = seedUuid('portfolio');

/**
 * The demo as its owners take it: the portfolio as an operator's onboarding imports it (the layout of `import
 * <file>`), the shoppers (persons, leads, the signed lease, a note), the tenancies already running (brought in by
 * `@storage/rentals`) and each rental's ledger (posted by `@storage/rental-ledger`).
 */
export interface DemoPortfolio {
  portfolio: Omit<PortfolioFile, 'facilities'> & { facilities: DemoFacility[] };
  shoppers: Shoppers;
  rentals: ExistingRental[];
  ledgers: { rentalRecordUuid: string; entries: NewLedgerEntry[] }[];
}

type DemoFacility = FacilityEntry & Required<Pick<FacilityEntry, 'sizeAndTypeGroups' | 'unitGroups' | 'units' | 'coverages' | 'promotions'>>;

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const;
const hours = (open: string, close: string, weekend: { open: string; close: string } | null): OperatingHours => ({
  ...Object.fromEntries(WEEKDAYS.map((day) => [day, { open, close }])),
  saturday: weekend,
  sunday: null,
});

const FACILITIES = [
  {
    key: 'downtown',
    name: 'Downtown Self Storage',
    addressLine1: '120 Hudson St',
    city: 'New York',
    state: 'NY',
    zip: '10013',
    phone: '(212) 555-0142',
    timeZone: 'America/New_York',
    operatingHours: hours('08:00', '20:00', { open: '09:00', close: '17:00' }),
  },
  {
    key: 'lakeside',
    name: 'Lakeside Storage',
    addressLine1: '4400 N Lake Shore Dr',
    city: 'Chicago',
    state: 'IL',
    zip: '60640',
    phone: '(312) 555-0178',
    timeZone: 'America/Chicago',
    operatingHours: hours('07:00', '19:00', { open: '08:00', close: '16:00' }),
  },
  {
    key: 'desert',
    name: 'Desert Sun Storage',
    addressLine1: '901 E Camelback Rd',
    city: 'Phoenix',
    state: 'AZ',
    zip: '85014',
    phone: '(602) 555-0119',
    timeZone: 'America/Phoenix',
    operatingHours: hours('06:00', '18:00', null),
  },
] as const;

const UNIT_TYPES = ['Climate Controlled', 'Drive-Up', 'Standard Indoor', 'Vehicle Parking'] as const;
const AMENITIES = [
  { key: 'climate', description: 'Climate controlled', isSmartAmenity: false },
  { key: 'drive-up', description: 'Drive-up access', isSmartAmenity: false },
  { key: 'smart-lock', description: 'Smart lock', isSmartAmenity: true },
  { key: 'ground-floor', description: 'Ground floor', isSmartAmenity: false },
  { key: 'power', description: 'Power outlet', isSmartAmenity: false },
] as const;

const OCCUPANCY_BANDS: OccupancyBand[] = [
  { minOccupancyPercent: 0, maxOccupancyPercent: 50, streetAdjustmentPercent: -5, webAdjustmentPercent: -10 },
  { minOccupancyPercent: 50, maxOccupancyPercent: 85, streetAdjustmentPercent: 0, webAdjustmentPercent: -3 },
  { minOccupancyPercent: 85, maxOccupancyPercent: 100, streetAdjustmentPercent: 8, webAdjustmentPercent: 5 },
];

/** Size-and-type groups of every facility: size, type, and the tiers (unit groups) within. */
const SIZES = [
  { key: '5x5', width: 5, length: 5, height: 8, type: 'Standard Indoor', tiers: [{ rate: 4900, units: 8, amenities: [] }] },
  {
    key: '5x10',
    width: 5,
    length: 10,
    height: 8,
    type: 'Climate Controlled',
    tiers: [
      { rate: 7900, units: 10, amenities: ['climate'] },
      { rate: 8900, units: 6, amenities: ['climate', 'smart-lock'] },
    ],
  },
  {
    key: '10x10',
    width: 10,
    length: 10,
    height: 8,
    type: 'Climate Controlled',
    tiers: [
      { rate: 12900, units: 10, amenities: ['climate'] },
      { rate: 14500, units: 6, amenities: ['climate', 'ground-floor', 'smart-lock'] },
    ],
  },
  { key: '10x15', width: 10, length: 15, height: 10, type: 'Drive-Up', tiers: [{ rate: 15900, units: 8, amenities: ['drive-up'] }] },
  { key: '10x20', width: 10, length: 20, height: 10, type: 'Drive-Up', tiers: [{ rate: 19900, units: 8, amenities: ['drive-up', 'power'] }] },
  { key: '12x35', width: 12, length: 35, height: 14, type: 'Vehicle Parking', tiers: [{ rate: 11900, units: 6, amenities: ['drive-up'] }] },
] as const;

const FIRST_NAMES = ['Ava', 'Liam', 'Mia', 'Noah', 'Zoe', 'Ethan', 'Chloe', 'Lucas', 'Grace', 'Owen', 'Ivy', 'Mateo', 'Nora', 'Caleb', 'Ruby', 'Elias'];
const LAST_NAMES = ['Garcia', 'Nguyen', 'Patel', 'Smith', 'Okafor', 'Johnson', 'Kim', 'Rossi', 'Haddad', 'Brown', 'Silva', 'Cohen', 'Ward'];
const VEHICLES = [
  { type: 'RV', make: 'Winnebago', model: 'View 24D' },
  { type: 'Boat', make: 'Bayliner', model: 'VR5' },
  { type: 'Car', make: 'Ford', model: 'Mustang' },
  { type: 'Trailer', make: 'Airstream', model: 'Basecamp' },
];

/** The share of each unit group rented out, so occupancy (and so current rates) varies between groups. */
const OCCUPANCY_PATTERN = [0.9, 0.6, 0.3, 0.75, 1, 0.5, 0.85];

const pick = <T>(list: readonly T[], index: number): T => list[index % list.length];

/**
 * The whole demo, relative to `today` (the first day of the month rentals start from, due dates and the promotion
 * windows are anchored there, so the demo is current whenever it is seeded).
 */
export function demoPortfolio(today: string): DemoPortfolio {
  const d: DemoPortfolio = {
    portfolio: {
      portfolio: { uuid: DEMO_PORTFOLIO_UUID, portfolioId: DEMO_PORTFOLIO_ID, name: 'Demo Storage Co.' },
      unitTypes: UNIT_TYPES.map((description) => ({ uuid: seedUuid(`unit-type:${description}`), description })),
      amenities: AMENITIES.map((a) => ({ uuid: seedUuid(`amenity:${a.key}`), description: a.description, isSmartAmenity: a.isSmartAmenity })),
      ratePlans: [{ uuid: seedUuid('rate-plan:occupancy'), name: 'Occupancy based', occupancyBands: OCCUPANCY_BANDS }],
      itemTypes: [
        { key: 'lock', name: 'Disc lock rental', kind: 'SERVICE' as const, priceInPennies: 500, feeType: 'FIXED_AMOUNT' as const, isRecurring: true },
        { key: 'trash', name: 'Trash removal', kind: 'SERVICE' as const, priceInPennies: 1500, feeType: 'FIXED_AMOUNT' as const, isRecurring: true },
        { key: 'admin-fee', name: 'Administration fee', kind: 'FEE' as const, priceInPennies: 2500, feeType: 'FIXED_AMOUNT' as const, isRecurring: false },
        { key: 'late-fee', name: 'Late fee', kind: 'FEE' as const, priceInPennies: 1000, feeType: 'PERCENTAGE' as const, isRecurring: false },
        ...COVERAGE_PROVIDERS.map((provider) => ({
          key: `coverage:${provider}`,
          name: `Coverage premium (${provider})`,
          kind: 'COVERAGE' as const,
          priceInPennies: 0,
          feeType: 'FIXED_AMOUNT' as const,
          isRecurring: true,
        })),
      ].map(({ key, ...fields }) => ({ uuid: seedUuid(`item-type:${key}`), ...fields })),
      leadSources: ['Website', 'Walk-in', 'Phone call', 'Referral', 'Google Ads'].map((description) => ({
        uuid: seedUuid(`lead-source:${description}`),
        description,
      })),
      leadMarketingSources: ['Google', 'Facebook', 'Billboard', 'Yelp'].map((description) => ({
        uuid: seedUuid(`lead-marketing-source:${description}`),
        description,
      })),
      facilities: [],
    },
    shoppers: { persons: [], leads: [], leases: [], notes: [] },
    rentals: [],
    ledgers: [],
  };
  const monthStart = `${today.slice(0, 7)}-01`;
  let tenant = 0;

  for (const facility of FACILITIES) {
    const { key, ...fields } = facility;
    const facilityUuid = seedUuid(`facility:${key}`);
    const f: DemoFacility = { uuid: facilityUuid, ...fields, country: 'US', sizeAndTypeGroups: [], unitGroups: [], units: [], coverages: [], promotions: [] };
    d.portfolio.facilities.push(f);

    COVERAGE_PROVIDERS.forEach((provider, i) => {
      f.coverages.push({
        uuid: seedUuid(`coverage:${key}:${provider}`),
        itemTypeUuid: seedUuid(`item-type:coverage:${provider}`),
        premiumInPennies: 900 + i * 400,
        coverageAmountInPennies: 200_000 + i * 300_000,
        description: `${(2_000 + i * 3_000).toLocaleString('en-US')} dollars of coverage`,
        provider,
        allowManualChanges: provider === 'OTHER',
        providerDescription: `${provider.replace(/_/g, ' ').toLowerCase()} protection plan`,
        isDefault: i === 0,
      });
    });

    let groupIndex = 0;
    SIZES.forEach((size, sizeIndex) => {
      const sizeUuid = seedUuid(`size:${key}:${size.key}`);
      f.sizeAndTypeGroups.push({
        uuid: sizeUuid,
        unitTypeUuid: seedUuid(`unit-type:${size.type}`),
        length: size.length,
        width: size.width,
        height: size.height,
      });
      size.tiers.forEach((tier, tierIndex) => {
        const groupUuid = seedUuid(`unit-group:${key}:${size.key}:${tierIndex + 1}`);
        const occupied = Math.round(tier.units * pick(OCCUPANCY_PATTERN, groupIndex++));
        // The rent of its tenants: the group's street rate once they are in, as the occupancy owner will price it.
        const rates = currentRates({
          baseStreetRateInPennies: tier.rate,
          baseWebRateInPennies: tier.rate - 500,
          occupancyPercent: occupancyPercent(tier.units, occupied),
          bands: OCCUPANCY_BANDS,
        });
        f.unitGroups.push({
          uuid: groupUuid,
          sizeAndTypeGroupUuid: sizeUuid,
          description: `${size.key} ${size.type}${tierIndex > 0 ? ' Premium' : ''}`,
          tierLevel: tierIndex + 1,
          ratePlanUuid: seedUuid('rate-plan:occupancy'),
          baseStreetRateInPennies: tier.rate,
          baseWebRateInPennies: tier.rate - 500,
          amenityUuids: tier.amenities.map((amenity) => seedUuid(`amenity:${amenity}`)),
          canShowUnitGroupTenantPortal: true,
        });
        for (let n = 1; n <= tier.units; n++) {
          const unitUuid = seedUuid(`unit:${key}:${size.key}:${tierIndex + 1}:${n}`);
          // A row letter per size, then tier and number: C104 is the fourth tier-1 unit of the third size.
          const unitName = `${String.fromCharCode(65 + sizeIndex)}${tierIndex + 1}${String(n).padStart(2, '0')}`;
          f.units.push({ uuid: unitUuid, unitGroupUuid: groupUuid, name: unitName, floor: tierIndex > 0 || size.type !== 'Climate Controlled' ? '1' : '2' });
          if (n <= occupied)
            addTenant(d, {
              index: tenant++,
              facilityUuid,
              facilityKey: key,
              unitUuid,
              groupUuid,
              rent: rates.currentStreetRateInPennies,
              isVehicle: size.type === 'Vehicle Parking',
              monthStart,
              today,
            });
        }
      });
    });
    addPromotions(f, key, today);
  }
  addLeads(d, today);
  return d;
}

interface TenantSpec {
  index: number;
  facilityUuid: string;
  facilityKey: string;
  unitUuid: string;
  groupUuid: string;
  rent: number;
  isVehicle: boolean;
  monthStart: string;
  today: string;
}

/** The last due date on or before `today` of a rental started on `startDate` (its start date at the earliest). */
function latestDueDate(startDate: string, billingDay: number, today: string): string {
  let due = startDate;
  for (let next = nextDueDateAfter(due, billingDay); next <= today; next = nextDueDateAfter(next, billingDay)) due = next;
  return due;
}

/** The due date before `due` (the start date at the earliest). */
function previousDueDate(startDate: string, billingDay: number, due: string): string {
  let previous = startDate;
  for (let next = nextDueDateAfter(previous, billingDay); next < due; next = nextDueDateAfter(next, billingDay)) previous = next;
  return previous;
}

function addTenant(d: DemoPortfolio, spec: TenantSpec): void {
  const i = spec.index;
  const firstName = pick(FIRST_NAMES, i);
  const lastName = pick(LAST_NAMES, i * 7 + 3);
  const personUuid = seedUuid(`person:${i}`);
  const rentalUuid = seedUuid(`rental:${i}`);
  const isBusiness = i % 9 === 4;
  d.shoppers.persons.push({
    uuid: personUuid,
    portfolioUuid: DEMO_PORTFOLIO_UUID,
    firstName,
    lastName,
    email: `${firstName}.${lastName}.${i}@example.com`.toLowerCase(),
    phone: `212555${String(1000 + i).slice(-4)}`,
    phoneType: 'mobile',
    isSmsEnrolled: i % 2 === 0,
    addressLine1: `${100 + i} Main St`,
    addressLine2: null,
    city: 'Springfield',
    state: 'IL',
    country: 'US',
    zip: '62701',
    idType: 'DRIVERS_LICENSE',
    idCode: `D${String(5_000_000 + i * 37)}`,
    idState: 'IL',
    idCountry: 'US',
    idIssueDate: '2020-03-01',
    idExpirationDate: '2028-03-01',
    accountType: isBusiness ? 'BUSINESS' : 'PERSONAL',
    businessName: isBusiness ? `${lastName} Supply LLC` : null,
    taxId: isBusiness ? `12-34${String(10000 + i)}` : null,
    dateOfBirth: `19${70 + (i % 25)}-0${1 + (i % 9)}-15`,
    alternateContact: i % 3 === 0 ? { firstName: pick(FIRST_NAMES, i + 5), lastName, phone: '3125550100', relationship: 'Spouse' } : null,
    military: i % 11 === 0 ? { branch: 'Army', startDateOfService: '2012-06-01', commanderOfficer: 'Col. Reyes', officerEmail: 'reyes@example.mil' } : null,
    beneficiary:
      i % 4 === 0 ? { firstName: pick(FIRST_NAMES, i + 2), lastName, relationship: 'Child', email: `beneficiary.${i}@example.com`, phone: '3125550199' } : null,
  });
  // Start dates spread over two years; billing on the start day (capped at 28 so every month has it).
  const startDate = addDays(spec.monthStart, -((i * 23) % 730));
  const billingDay = billingDayFor(startDate);
  // The period billed last: the latest due date up to today. Every seventh tenant is a month behind: the period
  // before it is unpaid, and today's business day bills the latest one too, so the scheduler has work in the demo.
  const latestDue = latestDueDate(startDate, billingDay, spec.today);
  const isBehind = i % 7 === 3 && latestDue > startDate;
  const billedDue = isBehind ? previousDueDate(startDate, billingDay, latestDue) : latestDue;
  const billedPeriod = { from: billedDue, to: nextDueDateAfter(billedDue, billingDay) };
  const hasLock = i % 4 === 1;
  const vehicle = spec.isVehicle || i % 10 === 6 ? pick(VEHICLES, i) : null;
  d.rentals.push({
    uuid: rentalUuid,
    portfolioUuid: DEMO_PORTFOLIO_UUID,
    facilityUuid: spec.facilityUuid,
    unitUuid: spec.unitUuid,
    unitGroupUuid: spec.groupUuid,
    personUuid,
    leadUuid: null,
    rentInPennies: spec.rent,
    startDate,
    nextDueDate: billedPeriod.to,
    // A third pay by autopay with the test card the embedded payment port approves.
    autopayPaymentMethod: i % 3 === 1 ? 'pm_card_visa' : null,
    gateCode: { uuid: seedUuid(`gate:${i}`), code: String(100_000 + ((i * 7_919) % 900_000)) },
    services: hasLock
      ? [
          {
            uuid: seedUuid(`rental-service:${i}`),
            itemTypeUuid: seedUuid('item-type:lock'),
            description: 'Disc lock rental',
            amountInPennies: 500,
            feeType: 'FIXED_AMOUNT',
            startDate,
          },
        ]
      : [],
    vehicles:
      vehicle === null
        ? []
        : [{ uuid: seedUuid(`vehicle:${i}`), ...vehicle, licensePlateNumber: `DMO${String(1000 + i)}`, vin: `1HGCM82633A${String(100000 + i)}` }],
    coverageEnrollments: coverageHistory(i, spec.facilityKey, startDate),
  });
  // The period's charges as billing posts them (same charge keys, so a business day never bills them again), paid,
  // or (behind) unpaid since their due date.
  const charges = [
    {
      key: 'rent',
      kind: 'RENT' as const,
      description: `Rent ${billedPeriod.from} to ${addDays(billedPeriod.to, -1)}`,
      amountInPennies: spec.rent,
      itemTypeUuid: null,
    },
    ...(hasLock
      ? [{ key: 'lock', kind: 'SERVICE_FEE' as const, description: 'Disc lock rental', amountInPennies: 500, itemTypeUuid: seedUuid('item-type:lock') }]
      : []),
  ];
  const entries: NewLedgerEntry[] = charges.map((charge) => ({
    uuid: seedUuid(`${charge.key}:${i}`),
    kind: charge.kind,
    description: charge.description,
    amountInPennies: charge.amountInPennies,
    postedOn: billedDue,
    dueOn: billedDue,
    period: billedPeriod,
    itemTypeUuid: charge.itemTypeUuid,
    chargeKey: periodChargeKey({ kind: charge.kind, itemTypeUuid: charge.itemTypeUuid, dueOn: billedDue }),
  }));
  if (!isBehind) {
    const paid = charges.reduce((sum, charge) => sum + charge.amountInPennies, 0);
    entries.push({ uuid: seedUuid(`payment:${i}`), kind: 'PAYMENT', description: 'Payment', amountInPennies: -paid, postedOn: billedDue, dueOn: null });
  }
  d.ledgers.push({ rentalRecordUuid: rentalUuid, entries });
}

/** Most tenants have coverage; some changed provider (an ended enrollment then a new one), some bring their own. */
function coverageHistory(i: number, facilityKey: string, startDate: string): ExistingCoverageEnrollment[] {
  if (i % 5 === 2) return [];
  const provider = pick(COVERAGE_PROVIDERS, i);
  const ownInsurance = i % 6 === 0;
  const coverageUuid = ownInsurance ? PRIVATE_COVERAGE_UUID : seedUuid(`coverage:${facilityKey}:${provider}`);
  const enrollment = (n: number, from: string, to: string | null, uuid: string): ExistingCoverageEnrollment => ({
    uuid: seedUuid(`enrollment:${i}:${n}`),
    coverageUuid: uuid,
    premiumInPennies: ownInsurance ? 0 : 900 + (i % 5) * 400,
    coverageAmountInPennies: 200_000 + (i % 5) * 300_000,
    startDate: from,
    endDate: to,
    partnerCoverageId: ownInsurance ? `POL-${100000 + i}` : null,
  });
  if (i % 4 !== 3) return [enrollment(1, startDate, null, coverageUuid)];
  const switched = addDays(startDate, 180);
  return [
    enrollment(1, startDate, switched, seedUuid(`coverage:${facilityKey}:${pick(COVERAGE_PROVIDERS, i + 1)}`)),
    enrollment(2, switched, null, coverageUuid),
  ];
}

function addPromotions(f: DemoFacility, key: string, today: string): void {
  const climateGroups = f.unitGroups.filter((g) => g.description.includes('Climate')).map((g) => g.uuid);
  const lock = seedUuid('item-type:lock');
  const promotions = [
    { key: 'half-off', name: 'First month 50% off', discountType: 'PERCENTAGE' as const, percentage: 50 },
    { key: 'one-dollar', name: '$1 first month', discountType: 'FIXED_RATE' as const, amountInPennies: 100, tenantType: 'PERSONAL' as const },
    {
      key: 'business',
      name: '$25 off for 3 months (business)',
      discountType: 'AMOUNT_OFF' as const,
      amountInPennies: 2500,
      durationInMonths: 3,
      tenantType: 'BUSINESS' as const,
    },
    {
      key: 'autopay',
      name: '10% off 6 months with autopay',
      discountType: 'PERCENTAGE' as const,
      percentage: 10,
      durationInMonths: 6,
      isAutoPayRequired: true,
    },
    {
      key: 'climate',
      name: 'Climate units: 20% off 2 months',
      discountType: 'PERCENTAGE' as const,
      percentage: 20,
      durationInMonths: 2,
      unitGroupUuids: climateGroups,
      validFrom: addDays(today, -30),
      validTo: addDays(today, 60),
    },
    {
      key: 'expired',
      name: 'Last summer special',
      discountType: 'PERCENTAGE' as const,
      percentage: 75,
      validFrom: addDays(today, -400),
      validTo: addDays(today, -300),
    },
    {
      key: 'free-lock',
      name: 'Free lock first month',
      family: 'DISCOUNTED_SERVICE' as const,
      itemTypeUuid: lock,
      discountType: 'PERCENTAGE' as const,
      percentage: 100,
    },
    {
      key: 'lock-2-off',
      name: '$2 off lock for 3 months',
      family: 'DISCOUNTED_SERVICE' as const,
      itemTypeUuid: lock,
      discountType: 'AMOUNT_OFF' as const,
      amountInPennies: 200,
      durationInMonths: 3,
    },
    {
      key: 'trash-half',
      name: 'Trash removal half price',
      family: 'DISCOUNTED_SERVICE' as const,
      itemTypeUuid: seedUuid('item-type:trash'),
      discountType: 'PERCENTAGE' as const,
      percentage: 50,
      durationInMonths: 2,
      isAutoPayRequired: true,
    },
  ];
  for (const { key: promotionKey, ...fields } of promotions) f.promotions.push({ uuid: seedUuid(`promotion:${key}:${promotionKey}`), ...fields });
}

/** Open leads to send leases to, and one converted lead (signed lease, rental, gate code) for operation 3. */
function addLeads(d: DemoPortfolio, today: string): void {
  const downtown = seedUuid('facility:downtown');
  const group = seedUuid('unit-group:downtown:10x10:1');
  const { persons, leads } = d.shoppers;
  const lead = (n: number, firstName: string, lastName: string, extra: Partial<(typeof leads)[number]>): string => {
    const personUuid = seedUuid(`lead-person:${n}`);
    persons.push({
      uuid: personUuid,
      portfolioUuid: DEMO_PORTFOLIO_UUID,
      firstName,
      lastName,
      email: `${firstName}.${lastName}@example.com`.toLowerCase(),
      phone: `646555${String(2000 + n)}`,
      accountType: 'PERSONAL',
    });
    leads.push({
      uuid: seedUuid(`lead:${n}`),
      portfolioUuid: DEMO_PORTFOLIO_UUID,
      facilityUuid: downtown,
      unitGroupUuid: group,
      personUuid,
      status: 'OPEN',
      isForBusiness: false,
      leadSourceUuid: seedUuid('lead-source:Website'),
      leadMarketingSourceUuid: seedUuid('lead-marketing-source:Google'),
      desiredMoveInDate: addDays(today, 7 * n),
      verifyToken: null,
      convertedRentalRecordUuid: null,
      ...extra,
    });
    return personUuid;
  };
  lead(1, 'Harper', 'Lee', {});
  lead(2, 'Jonah', 'Price', { unitGroupUuid: null });
  lead(3, 'Maya', 'Chen', {});
  const converted = d.rentals.find((r) => r.facilityUuid === downtown && r.unitGroupUuid === group)!;
  converted.personUuid = lead(4, 'Felix', 'Moreau', { status: 'CONVERTED', convertedRentalRecordUuid: converted.uuid });
  converted.leadUuid = seedUuid('lead:4');
  d.shoppers.leases.push({
    uuid: seedUuid('lease:4'),
    leadUuid: seedUuid('lead:4'),
    facilityUuid: downtown,
    unitGroupUuid: group,
    rentInPennies: converted.rentInPennies,
    signingTokenHash: hashSigningToken('demo-signed-lease-4'),
    status: 'SIGNED',
    sentAt: new Date(`${converted.startDate}T12:00:00Z`),
    signedAt: new Date(`${converted.startDate}T15:00:00Z`),
    rentalRecordUuid: converted.uuid,
  });
  d.shoppers.notes.push({ uuid: seedUuid('note:1'), leadUuid: seedUuid('lead:1'), noteText: 'Asked about climate control and truck access.' });
}
