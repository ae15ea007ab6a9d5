import { addDays, billingDayFor, COVERAGE_PROVIDERS, nextDueDateAfter, currentRates, occupancyPercent, PRIVATE_COVERAGE_UUID, type OccupancyBand } from '@storage/domain';
import type { OperatingHours } from '../model/facility.entity';
import { periodChargeKey } from '@storage/rental-ledger';
import { seedUuid } from './seed-uuid';

/** The demo portfolio, fully described as rows; ids come from names, so each run produces the same data. */
export const DEMO_PORTFOLIO_ID = 'demo';
export const DEMO_PORTFOLIO_UUID = seedUuid('portfolio');

type Row = Record<string, unknown>;
export type DemoTables = Record<string, Row[]>;

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const;
const hours = (open: string, close: string, weekend: { open: string; close: string } | null): OperatingHours => ({
  ...Object.fromEntries(WEEKDAYS.map((day) => [day, { open, close }])),
  saturday: weekend,
  sunday: null,
});

const FACILITIES = [
  { key: 'downtown', name: 'Downtown Self Storage', addressLine1: '120 Hudson St', city: 'New York', state: 'NY', zip: '10013', phone: '(212) 555-0142', timeZone: 'America/New_York', operatingHours: hours('08:00', '20:00', { open: '09:00', close: '17:00' }) },
  { key: 'lakeside', name: 'Lakeside Storage', addressLine1: '4400 N Lake Shore Dr', city: 'Chicago', state: 'IL', zip: '60640', phone: '(312) 555-0178', timeZone: 'America/Chicago', operatingHours: hours('07:00', '19:00', { open: '08:00', close: '16:00' }) },
  { key: 'desert', name: 'Desert Sun Storage', addressLine1: '901 E Camelback Rd', city: 'Phoenix', state: 'AZ', zip: '85014', phone: '(602) 555-0119', timeZone: 'America/Phoenix', operatingHours: hours('06:00', '18:00', null) },
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
  { key: '5x10', width: 5, length: 10, height: 8, type: 'Climate Controlled', tiers: [{ rate: 7900, units: 10, amenities: ['climate'] }, { rate: 8900, units: 6, amenities: ['climate', 'smart-lock'] }] },
  { key: '10x10', width: 10, length: 10, height: 8, type: 'Climate Controlled', tiers: [{ rate: 12900, units: 10, amenities: ['climate'] }, { rate: 14500, units: 6, amenities: ['climate', 'ground-floor', 'smart-lock'] }] },
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
 * All demo rows, relative to `today` (the first day of the month rentals start from, due dates and
 * the promotion windows are anchored there, so the demo is current whenever it is seeded).
 */
export function demoTables(today: string): DemoTables {
  const t: DemoTables = {
    portfolios: [{ uuid: DEMO_PORTFOLIO_UUID, portfolioId: DEMO_PORTFOLIO_ID, name: 'Demo Storage Co.' }],
    unit_types: UNIT_TYPES.map((description) => ({ uuid: seedUuid(`unit-type:${description}`), portfolioUuid: DEMO_PORTFOLIO_UUID, description })),
    amenities: AMENITIES.map((a) => ({ uuid: seedUuid(`amenity:${a.key}`), portfolioUuid: DEMO_PORTFOLIO_UUID, description: a.description, isSmartAmenity: a.isSmartAmenity })),
    rate_plans: [{ uuid: seedUuid('rate-plan:occupancy'), portfolioUuid: DEMO_PORTFOLIO_UUID, name: 'Occupancy based', occupancyBands: JSON.stringify(OCCUPANCY_BANDS) }],
    item_types: [
      { key: 'lock', name: 'Disc lock rental', kind: 'SERVICE', priceInPennies: 500, feeType: 'FIXED_AMOUNT', isRecurring: true },
      { key: 'trash', name: 'Trash removal', kind: 'SERVICE', priceInPennies: 1500, feeType: 'FIXED_AMOUNT', isRecurring: true },
      { key: 'admin-fee', name: 'Administration fee', kind: 'FEE', priceInPennies: 2500, feeType: 'FIXED_AMOUNT', isRecurring: false },
      { key: 'late-fee', name: 'Late fee', kind: 'FEE', priceInPennies: 1000, feeType: 'PERCENTAGE', isRecurring: false },
      ...COVERAGE_PROVIDERS.map((provider) => ({ key: `coverage:${provider}`, name: `Coverage premium (${provider})`, kind: 'COVERAGE', priceInPennies: 0, feeType: 'FIXED_AMOUNT', isRecurring: true })),
    ].map(({ key, ...row }) => ({ uuid: seedUuid(`item-type:${key}`), portfolioUuid: DEMO_PORTFOLIO_UUID, ...row })),
    lead_sources: ['Website', 'Walk-in', 'Phone call', 'Referral', 'Google Ads'].map((description) => ({ uuid: seedUuid(`lead-source:${description}`), portfolioUuid: DEMO_PORTFOLIO_UUID, description })),
    lead_marketing_sources: ['Google', 'Facebook', 'Billboard', 'Yelp'].map((description) => ({ uuid: seedUuid(`lead-marketing-source:${description}`), portfolioUuid: DEMO_PORTFOLIO_UUID, description })),
    facilities: [], size_and_type_groups: [], unit_groups: [], unit_group_amenities: [], units: [], coverages: [], promotions: [],
    persons: [], rental_records: [], rental_ledger_entries: [], rental_services: [], gate_codes: [], vehicles: [], coverage_enrollments: [], leads: [], leases: [], notes: [],
  };
  const monthStart = `${today.slice(0, 7)}-01`;
  let tenant = 0;

  for (const facility of FACILITIES) {
    const { key, ...fields } = facility;
    const facilityUuid = seedUuid(`facility:${key}`);
    t.facilities.push({ uuid: facilityUuid, portfolioUuid: DEMO_PORTFOLIO_UUID, ...fields, addressLine2: null, country: 'US' });

    COVERAGE_PROVIDERS.forEach((provider, i) => {
      t.coverages.push({
        uuid: seedUuid(`coverage:${key}:${provider}`), facilityUuid, itemTypeUuid: seedUuid(`item-type:coverage:${provider}`),
        premiumInPennies: 900 + i * 400, coverageAmountInPennies: 200_000 + i * 300_000, description: `${(2_000 + i * 3_000).toLocaleString('en-US')} dollars of coverage`,
        provider, allowManualChanges: provider === 'OTHER', providerDescription: `${provider.replace(/_/g, ' ').toLowerCase()} protection plan`, isDefault: i === 0,
      });
    });

    let groupIndex = 0;
    SIZES.forEach((size, sizeIndex) => {
      const sizeUuid = seedUuid(`size:${key}:${size.key}`);
      t.size_and_type_groups.push({ uuid: sizeUuid, facilityUuid, unitTypeUuid: seedUuid(`unit-type:${size.type}`), length: size.length, width: size.width, height: size.height });
      size.tiers.forEach((tier, tierIndex) => {
        const groupUuid = seedUuid(`unit-group:${key}:${size.key}:${tierIndex + 1}`);
        const occupied = Math.round(tier.units * pick(OCCUPANCY_PATTERN, groupIndex++));
        const rates = currentRates({ baseStreetRateInPennies: tier.rate, baseWebRateInPennies: tier.rate - 500, occupancyPercent: occupancyPercent(tier.units, occupied), bands: OCCUPANCY_BANDS });
        t.unit_groups.push({
          uuid: groupUuid, facilityUuid, sizeAndTypeGroupUuid: sizeUuid, description: `${size.key} ${size.type}${tierIndex > 0 ? ' Premium' : ''}`,
          tierLevel: tierIndex + 1, ratePlanUuid: seedUuid('rate-plan:occupancy'), baseStreetRateInPennies: tier.rate, baseWebRateInPennies: tier.rate - 500,
          ...rates, canShowUnitGroupTenantPortal: true,
        });
        for (const amenity of tier.amenities) t.unit_group_amenities.push({ unitGroupUuid: groupUuid, amenityUuid: seedUuid(`amenity:${amenity}`) });
        for (let n = 1; n <= tier.units; n++) {
          const unitUuid = seedUuid(`unit:${key}:${size.key}:${tierIndex + 1}:${n}`);
          // A row letter per size, then tier and number: C104 is the fourth tier-1 unit of the third size.
          const unitName = `${String.fromCharCode(65 + sizeIndex)}${tierIndex + 1}${String(n).padStart(2, '0')}`;
          const isOccupied = n <= occupied;
          t.units.push({ uuid: unitUuid, facilityUuid, unitGroupUuid: groupUuid, name: unitName, floor: tierIndex > 0 || size.type !== 'Climate Controlled' ? '1' : '2', status: isOccupied ? 'occupied' : 'vacant' });
          if (isOccupied) addTenant(t, { index: tenant++, facilityUuid, facilityKey: key, unitUuid, groupUuid, rent: rates.currentStreetRateInPennies, isVehicle: size.type === 'Vehicle Parking', monthStart, today });
        }
      });
    });
    addPromotions(t, key, facilityUuid, today);
  }
  addLeads(t, today);
  return t;
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

function addTenant(t: DemoTables, spec: TenantSpec): void {
  const i = spec.index;
  const firstName = pick(FIRST_NAMES, i);
  const lastName = pick(LAST_NAMES, i * 7 + 3);
  const personUuid = seedUuid(`person:${i}`);
  const rentalUuid = seedUuid(`rental:${i}`);
  const isBusiness = i % 9 === 4;
  t.persons.push({
    uuid: personUuid, portfolioUuid: DEMO_PORTFOLIO_UUID, firstName, lastName, email: `${firstName}.${lastName}.${i}@example.com`.toLowerCase(),
    phone: `212555${String(1000 + i).slice(-4)}`, phoneType: 'mobile', isSmsEnrolled: i % 2 === 0, addressLine1: `${100 + i} Main St`, addressLine2: null,
    city: 'Springfield', state: 'IL', country: 'US', zip: '62701', idType: 'DRIVERS_LICENSE', idCode: `D${String(5_000_000 + i * 37)}`, idState: 'IL',
    idCountry: 'US', idIssueDate: '2020-03-01', idExpirationDate: '2028-03-01', accountType: isBusiness ? 'BUSINESS' : 'PERSONAL',
    businessName: isBusiness ? `${lastName} Supply LLC` : null, taxId: isBusiness ? `12-34${String(10000 + i)}` : null, dateOfBirth: `19${70 + (i % 25)}-0${1 + (i % 9)}-15`,
    alternateContact: i % 3 === 0 ? { firstName: pick(FIRST_NAMES, i + 5), lastName, phone: '3125550100', relationship: 'Spouse' } : null,
    military: i % 11 === 0 ? { branch: 'Army', startDateOfService: '2012-06-01', commanderOfficer: 'Col. Reyes', officerEmail: 'reyes@example.mil' } : null,
    beneficiary: i % 4 === 0 ? { firstName: pick(FIRST_NAMES, i + 2), lastName, relationship: 'Child', email: `beneficiary.${i}@example.com`, phone: '3125550199' } : null,
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
  t.rental_records.push({
    uuid: rentalUuid, portfolioUuid: DEMO_PORTFOLIO_UUID, facilityUuid: spec.facilityUuid, unitUuid: spec.unitUuid, unitGroupUuid: spec.groupUuid, personUuid,
    leadUuid: null, rentInPennies: spec.rent, billingDayOfMonth: billingDay,
    nextDueDate: billedPeriod.to, startDate, endDate: null, status: 'ACTIVE',
    // A third pay by autopay with the test card the embedded payment port approves.
    autopayPaymentMethod: i % 3 === 1 ? 'pm_card_visa' : null,
  });
  // The ledger's trigger makes the balance: the period's charges as billing posts them (same charge keys, so a
  // business day never bills them again), paid, or (behind) unpaid since their due date.
  const hasLock = i % 4 === 1;
  const charges = [
    { key: 'rent', kind: 'RENT' as const, description: `Rent ${billedPeriod.from} to ${addDays(billedPeriod.to, -1)}`, amountInPennies: spec.rent, itemTypeUuid: null },
    ...(hasLock ? [{ key: 'lock', kind: 'SERVICE_FEE' as const, description: 'Disc lock rental', amountInPennies: 500, itemTypeUuid: seedUuid('item-type:lock') }] : []),
  ];
  for (const charge of charges) {
    t.rental_ledger_entries.push({
      uuid: seedUuid(`${charge.key}:${i}`), rentalRecordUuid: rentalUuid, kind: charge.kind, description: charge.description, amountInPennies: charge.amountInPennies,
      postedOn: billedDue, dueOn: billedDue, periodFrom: billedPeriod.from, periodTo: billedPeriod.to, itemTypeUuid: charge.itemTypeUuid,
      chargeKey: periodChargeKey({ kind: charge.kind, itemTypeUuid: charge.itemTypeUuid, dueOn: billedDue }),
    });
  }
  if (!isBehind) {
    const paid = charges.reduce((sum, charge) => sum + charge.amountInPennies, 0);
    t.rental_ledger_entries.push({ uuid: seedUuid(`payment:${i}`), rentalRecordUuid: rentalUuid, kind: 'PAYMENT', description: 'Payment', amountInPennies: -paid, postedOn: billedDue, dueOn: null });
  }
  t.gate_codes.push({ uuid: seedUuid(`gate:${i}`), facilityUuid: spec.facilityUuid, rentalRecordUuid: rentalUuid, code: String(100_000 + ((i * 7_919) % 900_000)) });
  if (hasLock) {
    t.rental_services.push({ uuid: seedUuid(`rental-service:${i}`), rentalRecordUuid: rentalUuid, itemTypeUuid: seedUuid('item-type:lock'), description: 'Disc lock rental', amountInPennies: 500, feeType: 'FIXED_AMOUNT', startDate, endDate: null });
  }
  if (spec.isVehicle || i % 10 === 6) {
    const vehicle = pick(VEHICLES, i);
    t.vehicles.push({ uuid: seedUuid(`vehicle:${i}`), facilityUuid: spec.facilityUuid, rentalRecordUuid: rentalUuid, ...vehicle, licensePlateNumber: `DMO${String(1000 + i)}`, vin: `1HGCM82633A${String(100000 + i)}` });
  }
  addCoverageHistory(t, i, spec.facilityUuid, spec.facilityKey, rentalUuid, startDate);
}

/** Most tenants have coverage; some changed provider (an ended enrollment then a new one), some bring their own. */
function addCoverageHistory(t: DemoTables, i: number, facilityUuid: string, facilityKey: string, rentalUuid: string, startDate: string): void {
  if (i % 5 === 2) return;
  const provider = pick(COVERAGE_PROVIDERS, i);
  const ownInsurance = i % 6 === 0;
  const coverageUuid = ownInsurance ? PRIVATE_COVERAGE_UUID : seedUuid(`coverage:${facilityKey}:${provider}`);
  const enrollment = (n: number, from: string, to: string | null, uuid: string) => ({
    uuid: seedUuid(`enrollment:${i}:${n}`), facilityUuid, rentalRecordUuid: rentalUuid, coverageUuid: uuid, premiumInPennies: ownInsurance ? 0 : 900 + (i % 5) * 400,
    coverageAmountInPennies: 200_000 + (i % 5) * 300_000, startDate: `${from}T00:00:00Z`, endDate: to === null ? null : `${to}T00:00:00Z`,
    partnerCoverageId: ownInsurance ? `POL-${100000 + i}` : null,
  });
  if (i % 4 === 3) {
    const switched = addDays(startDate, 180);
    t.coverage_enrollments.push(enrollment(1, startDate, switched, seedUuid(`coverage:${facilityKey}:${pick(COVERAGE_PROVIDERS, i + 1)}`)));
    t.coverage_enrollments.push(enrollment(2, switched, null, coverageUuid));
  } else {
    t.coverage_enrollments.push(enrollment(1, startDate, null, coverageUuid));
  }
}

function addPromotions(t: DemoTables, key: string, facilityUuid: string, today: string): void {
  const climateGroups = (t.unit_groups ?? []).filter((g) => g.facilityUuid === facilityUuid && String(g.description).includes('Climate')).map((g) => g.uuid as string);
  const base = { facilityUuid, isAutoApplied: true, tenantType: 'ALL', isAutoPayRequired: false, percentage: null, amountInPennies: null, monthStarts: 1, durationInMonths: 1, unitGroupUuids: [] as string[], validFrom: null, validTo: null, family: 'RENT', itemTypeUuid: null };
  const promotions = [
    { key: 'half-off', name: 'First month 50% off', discountType: 'PERCENTAGE', percentage: 50 },
    { key: 'one-dollar', name: '$1 first month', discountType: 'FIXED_RATE', amountInPennies: 100, tenantType: 'PERSONAL' },
    { key: 'business', name: '$25 off for 3 months (business)', discountType: 'AMOUNT_OFF', amountInPennies: 2500, durationInMonths: 3, tenantType: 'BUSINESS' },
    { key: 'autopay', name: '10% off 6 months with autopay', discountType: 'PERCENTAGE', percentage: 10, durationInMonths: 6, isAutoPayRequired: true },
    { key: 'climate', name: 'Climate units: 20% off 2 months', discountType: 'PERCENTAGE', percentage: 20, durationInMonths: 2, unitGroupUuids: climateGroups, validFrom: addDays(today, -30), validTo: addDays(today, 60) },
    { key: 'expired', name: 'Last summer special', discountType: 'PERCENTAGE', percentage: 75, validFrom: addDays(today, -400), validTo: addDays(today, -300) },
    { key: 'free-lock', name: 'Free lock first month', family: 'DISCOUNTED_SERVICE', itemTypeUuid: seedUuid('item-type:lock'), discountType: 'PERCENTAGE', percentage: 100 },
    { key: 'lock-2-off', name: '$2 off lock for 3 months', family: 'DISCOUNTED_SERVICE', itemTypeUuid: seedUuid('item-type:lock'), discountType: 'AMOUNT_OFF', amountInPennies: 200, durationInMonths: 3 },
    { key: 'trash-half', name: 'Trash removal half price', family: 'DISCOUNTED_SERVICE', itemTypeUuid: seedUuid('item-type:trash'), discountType: 'PERCENTAGE', percentage: 50, durationInMonths: 2, isAutoPayRequired: true },
  ];
  promotions.forEach((promotion, i) => {
    const { key: promotionKey, ...fields } = promotion;
    // Creation times one minute apart: ties between equal amounts go to the earlier one, deterministically.
    t.promotions.push({ ...base, ...fields, uuid: seedUuid(`promotion:${key}:${promotionKey}`), createdAt: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString() });
  });
}

/** Open leads to send leases to, and one converted lead (signed lease, rental, gate code) for operation 3. */
function addLeads(t: DemoTables, today: string): void {
  const downtown = seedUuid('facility:downtown');
  const group = seedUuid('unit-group:downtown:10x10:1');
  const lead = (n: number, firstName: string, lastName: string, extra: Row) => {
    const personUuid = seedUuid(`lead-person:${n}`);
    t.persons.push({ uuid: personUuid, portfolioUuid: DEMO_PORTFOLIO_UUID, firstName, lastName, email: `${firstName}.${lastName}@example.com`.toLowerCase(), phone: `646555${String(2000 + n)}`, accountType: 'PERSONAL' });
    t.leads.push({
      uuid: seedUuid(`lead:${n}`), portfolioUuid: DEMO_PORTFOLIO_UUID, facilityUuid: downtown, unitGroupUuid: group, personUuid, status: 'OPEN', isForBusiness: false,
      leadSourceUuid: seedUuid('lead-source:Website'), leadMarketingSourceUuid: seedUuid('lead-marketing-source:Google'), desiredMoveInDate: addDays(today, 7 * n),
      verifyToken: null, convertedRentalRecordUuid: null, ...extra,
    });
    return personUuid;
  };
  lead(1, 'Harper', 'Lee', {});
  lead(2, 'Jonah', 'Price', { unitGroupUuid: null });
  lead(3, 'Maya', 'Chen', {});
  const converted = t.rental_records.find((r) => r.facilityUuid === downtown && r.unitGroupUuid === group)!;
  const personUuid = lead(4, 'Felix', 'Moreau', { status: 'CONVERTED', convertedRentalRecordUuid: converted.uuid });
  converted.personUuid = personUuid;
  converted.leadUuid = seedUuid('lead:4');
  t.leases.push({
    uuid: seedUuid('lease:4'), leadUuid: seedUuid('lead:4'), facilityUuid: downtown, unitGroupUuid: group, rentInPennies: converted.rentInPennies, signingToken: 'demo-signed-lease-4',
    status: 'SIGNED', sentAt: `${String(converted.startDate)}T12:00:00Z`, signedAt: `${String(converted.startDate)}T15:00:00Z`, rentalRecordUuid: converted.uuid,
  });
  t.notes.push({ uuid: seedUuid('note:1'), leadUuid: seedUuid('lead:1'), noteText: 'Asked about climate control and truck access.' });
}
