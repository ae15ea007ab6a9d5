import { createApiKey } from '../../src/auth/create-api-key';
import { CatalogService } from '../../src/onboarding/catalog.service';
import { bringToAuction } from '../support/delinquency';
import { expectProblem, id } from '../support/test-api';
import { startLifecycleApi, type LifecycleApi } from '../support/lifecycle-api';
import { DOWNTOWN, facilityToday, leadWithLease, OPS, rentalOf, rentalPath, signingPath, type NewLead } from '../support/lifecycle-flow';
import { query, sql } from '@storage/persistence';

interface RentalRecordSummary {
  rentalRecordUuid: string;
  status: 'ACTIVE' | 'MOVED_OUT';
  tenantUuid: string;
  unitUuid: string;
  startDate: string;
  endDate: string | null;
  rentInPennies: number;
  balanceInPennies: number;
  delinquencyStatus: string | null;
}

interface RentalRecordsPage {
  rentalRecords: RentalRecordSummary[];
  nextPageAfter: string | null;
}

const LIST = `${OPS}/facilities/${DOWNTOWN}/rentalRecords`;
const GROUP = id('unit-group:downtown:5x10:1');

let api: LifecycleApi;
/** A lead that signed its lease here, and the rental the signing created. */
let signed: NewLead & { rental: string };
beforeAll(async () => {
  api = await startLifecycleApi();
  const lead = await leadWithLease(api, GROUP, { firstName: 'Cora', lastName: 'Finder' });
  await api.postForm(signingPath(lead.link), { agree: 'yes' });
  signed = { ...lead, rental: (await rentalOf(api.db, lead.leadUuid))! };
});
afterAll(async () => api.close());

const list = async (search: string, headers?: Record<string, string>): Promise<RentalRecordsPage> => {
  const reply = await api.call('GET', `${LIST}?${search}`, undefined, headers);
  expect({ search, status: reply.status }).toEqual({ search, status: 200 });
  return reply.body as RentalRecordsPage;
};

/** Every page of the list from the first, `limit` rentals at a time, each checked to end where the next starts. */
async function walk(filters: Record<string, string>, limit: number): Promise<RentalRecordSummary[]> {
  const walked: RentalRecordSummary[] = [];
  let after: string | null = null;
  do {
    const page: RentalRecordsPage = await list(new URLSearchParams({ ...filters, limit: String(limit), ...(after === null ? {} : { after }) }).toString());
    expect(page.rentalRecords.length).toBeLessThanOrEqual(limit);
    if (page.nextPageAfter !== null) {
      expect(page.nextPageAfter).toBe(page.rentalRecords.at(-1)!.rentalRecordUuid);
      // The cursor moves forward on every page, so the walk ends.
      expect(page.nextPageAfter > (after ?? '')).toBe(true);
    }
    walked.push(...page.rentalRecords);
    after = page.nextPageAfter;
  } while (after !== null);
  return walked;
}

/** The facility's rentals as the tables hold them, in uuid order (the not-delinquent status shown as null). */
async function stored(facilityUuid = DOWNTOWN): Promise<RentalRecordSummary[]> {
  return query(
    api.db,
    sql<RentalRecordSummary, [string]>(`SELECT r.uuid AS "rentalRecordUuid", r.status, r.person_uuid AS "tenantUuid", r.unit_uuid AS "unitUuid",
            to_char(r.start_date, 'YYYY-MM-DD') AS "startDate", to_char(r.end_date, 'YYYY-MM-DD') AS "endDate",
            r.rent_in_pennies AS "rentInPennies", r.balance_in_pennies AS "balanceInPennies",
            CASE WHEN d.status = 'CURRENT' THEN NULL ELSE d.status::text END AS "delinquencyStatus"
       FROM rental_records r LEFT JOIN delinquencies d ON d.rental_record_uuid = r.uuid
      WHERE r.facility_uuid = $1 ORDER BY r.uuid`),
    [facilityUuid],
  );
}

describe('operation 3 names the rental', () => {
  it("answers the rental the lead's signing created, the one the rental routes take and the list shows", async () => {
    const converted = await api.call('GET', `/shopping/demo/v1/facilities/tenant/${signed.leadUuid}`);
    expect(converted.status).toBe(200);
    expect(converted.body.unitRentalRecordUuid).toBe(signed.rental);

    const paid = await api.call('POST', `${rentalPath(converted.body.unitRentalRecordUuid)}/payments`, { amountInPennies: 1_000 });
    expect(paid.status).toBe(200);
    expect(paid.body.rentalRecordUuid).toBe(signed.rental);

    const found = await list(`tenantUuid=${signed.personUuid}`);
    expect(found).toEqual({
      rentalRecords: [
        expect.objectContaining({
          rentalRecordUuid: signed.rental,
          status: 'ACTIVE',
          startDate: converted.body.rentalStartDate,
          endDate: null,
          balanceInPennies: paid.body.balanceInPennies,
          delinquencyStatus: null,
        }),
      ],
      nextPageAfter: null,
    });
  });
});

describe("a facility's rental list", () => {
  let movedOut: string;
  let inAuction: string;
  beforeAll(async () => {
    const active = (await stored()).filter((rental) => rental.status === 'ACTIVE' && rental.rentalRecordUuid !== signed.rental);
    [movedOut, inAuction] = [active[0].rentalRecordUuid, active[1].rentalRecordUuid];
    expect((await api.call('POST', `${rentalPath(movedOut)}/moveOut`)).status).toBe(200);
    await bringToAuction(api.db, inAuction);
  });

  it('answers every rental of the facility, moved out too, with its tenant, unit, status, dates, money and delinquency', async () => {
    const page = await list('limit=200');
    expect(page.nextPageAfter).toBeNull();
    expect(page.rentalRecords).toEqual(await stored());
    const byUuid = new Map(page.rentalRecords.map((rental) => [rental.rentalRecordUuid, rental]));
    expect(byUuid.get(movedOut)).toMatchObject({ status: 'MOVED_OUT', endDate: await facilityToday(api.db) });
    expect(byUuid.get(inAuction)).toMatchObject({ status: 'ACTIVE', endDate: null, delinquencyStatus: 'AUCTION', balanceInPennies: expect.any(Number) });
    expect(page.rentalRecords.every((rental) => /^\d{4}-\d{2}-\d{2}$/.test(rental.startDate))).toBe(true);
    // Another facility of the portfolio lists its own rentals alone.
    const lakeside = id('facility:lakeside');
    const other = (await api.call('GET', `${OPS}/facilities/${lakeside}/rentalRecords?limit=200`)).body as RentalRecordsPage;
    expect(other.rentalRecords).toEqual(await stored(lakeside));
  });

  it('filters by status, tenant and unit, each alone and together', async () => {
    const all = await stored();
    const moved = all.find((rental) => rental.rentalRecordUuid === movedOut)!;
    expect((await list('status=MOVED_OUT&limit=200')).rentalRecords).toEqual(all.filter((rental) => rental.status === 'MOVED_OUT'));
    expect((await list('status=ACTIVE&limit=200')).rentalRecords).toEqual(all.filter((rental) => rental.status === 'ACTIVE'));
    expect((await list(`tenantUuid=${moved.tenantUuid}`)).rentalRecords).toEqual(all.filter((rental) => rental.tenantUuid === moved.tenantUuid));
    expect((await list(`unitUuid=${moved.unitUuid.toUpperCase()}`)).rentalRecords).toEqual(all.filter((rental) => rental.unitUuid === moved.unitUuid));
    expect((await list(`unitUuid=${moved.unitUuid}&status=MOVED_OUT`)).rentalRecords).toEqual([moved]);
    expect((await list(`unitUuid=${moved.unitUuid}&status=ACTIVE`)).rentalRecords).toEqual([]);
  });

  it('pages with limit and after: a page at a time, every rental exactly once, the last page ending with a null cursor', async () => {
    const all = await stored();
    expect(all.length).toBeGreaterThan(3);
    const one = await walk({}, 1);
    expect(one.map((rental) => rental.rentalRecordUuid)).toEqual(all.map((rental) => rental.rentalRecordUuid));
    expect(new Set(one.map((rental) => rental.rentalRecordUuid)).size).toBe(all.length);
    expect(await walk({ status: 'ACTIVE' }, 3)).toEqual(all.filter((rental) => rental.status === 'ACTIVE'));
    // The default page is 50 rentals.
    const first = await list('');
    expect(first.rentalRecords).toEqual(all.slice(0, 50));
    expect(first.nextPageAfter).toBe(all.length > 50 ? all[49].rentalRecordUuid : null);
  });

  it('refuses a bad limit, after or filter with problem+json naming it', async () => {
    for (const search of [
      'limit=0',
      'limit=201',
      'limit=ten',
      'limit=1.5',
      'limit=1e2',
      'after=42',
      'status=CLOSED',
      'status=active',
      'tenantUuid=nobody',
      'unitUuid=1',
    ]) {
      expectProblem(await api.call('GET', `${LIST}?${search}`), 400, [search.split('=')[0]]);
    }
  });

  it('answers 404 for a facility outside the portfolio, to a key of another portfolio, and lists to a read-only key', async () => {
    expectProblem(await api.call('GET', `${OPS}/facilities/${id('facility:nowhere')}/rentalRecords`), 404);
    expectProblem(await api.call('GET', `${OPS}/facilities/not-a-uuid/rentalRecords`), 400, ['facilityUuid']);

    await api.db.transaction((manager) => new CatalogService().putPortfolio(manager, 'elsewhere', { name: 'Elsewhere Co.' }));
    const elsewhere = await createApiKey(api.db, { portfolioIds: ['elsewhere'], scope: 'write' });
    expectProblem(await api.call('GET', LIST, undefined, { 'x-api-key': elsewhere.key }), 404);
    // Its own portfolio path does not reach the demo's facility either.
    expectProblem(await api.call('GET', `/api/elsewhere/portfolios/v1/facilities/${DOWNTOWN}/rentalRecords`, undefined, { 'x-api-key': elsewhere.key }), 404);

    const reader = await createApiKey(api.db, { portfolioIds: ['demo'], scope: 'read' });
    expect((await list('limit=200', { 'x-api-key': reader.key })).rentalRecords).toEqual(await stored());
  });
});
