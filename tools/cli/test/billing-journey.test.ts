import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { Client } from 'pg';
import { type DatabaseLocation, locateDatabase, query, sql } from '@storage/persistence';
import { describeWithKafka, eventually } from '@storage/testing';
import { runCli, startSystem, stopWithCtrlC, systemEnv, type RunningSystem } from './support/system';

/*
 * One tenant over five months, through the running system (`npm start`: api, dispatcher, scheduler) and the
 * business-day CLI, as an operator would drive it: a lease signed in a unit group with a first-month promotion
 * and the default coverage, a lock service added (its promotion takes $2 off months 1 to 3), month 2 paid, a
 * rent change effective in month 3, month 3 left unpaid (OVERDUE on its sixth day with the $20 late fee), the
 * exact past-due amount paid (PAID), months 4 and 5 paid. The ledger must equal the table below to the penny, and
 * every event's balances and next due date must match it, as a consumer of the transport receives them.
 */

const LIFECYCLE = 'storage.tenant-lifecycle.v1';
const BILLING = 'storage.billing.v1';

interface Envelope {
  type: string;
  key: string;
  payload: Record<string, unknown> & {
    unitRental?: { rentalBalance: number };
    billingTemplate?: { nextDueDate: string };
    tenantBalanceInPennies?: number;
    balanceAfterInPennies?: number;
    delinquencyStatusChange?: { delinquencyNewStatus: string; delinquencyStatusChangeDate: string };
  };
}

/** What a consumer of the transport receives about a rental, in log order per topic. */
interface Events {
  of(rental: string): Promise<{ lifecycle: Envelope[]; billing: Envelope[] }>;
  close(): Promise<void>;
}

/** The embedded transport's log is the outbox: its rows in order are what a consumer reads. */
function outboxEvents(db: Client): Events {
  return {
    async of(rental) {
      const rows = await query(db, sql<{ topic: string; envelope: Envelope }>('SELECT topic, envelope FROM outbox WHERE key = $1 ORDER BY id'), [rental]);
      return {
        lifecycle: rows.filter((r) => r.topic === LIFECYCLE).map((r) => r.envelope),
        billing: rows.filter((r) => r.topic === BILLING).map((r) => r.envelope),
      };
    },
    close: async () => undefined,
  };
}

/** Through Kafka: a consumer group of its own on both topics, from the beginning. */
async function kafkaEvents(brokers: string): Promise<Events> {
  const kafka = new Kafka({ clientId: 'billing-journey-test', brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  const consumer: Consumer = kafka.consumer({ groupId: `billing-journey-${Date.now()}` });
  await consumer.connect();
  await consumer.subscribe({ topics: [LIFECYCLE, BILLING], fromBeginning: true });
  const received: { topic: string; envelope: Envelope }[] = [];
  await consumer.run({
    eachMessage: async ({ topic, message }) => {
      if (message.value) received.push({ topic, envelope: JSON.parse(message.value.toString()) as Envelope });
    },
  });
  return {
    async of(rental) {
      const mine = received.filter((r) => r.envelope.key === rental);
      return {
        lifecycle: mine.filter((r) => r.topic === LIFECYCLE).map((r) => r.envelope),
        billing: mine.filter((r) => r.topic === BILLING).map((r) => r.envelope),
      };
    },
    close: () => consumer.disconnect(),
  };
}

/** The billing day after `date` (YYYY-MM-DD) for billing day `day` (1 to 28). */
function nextDue(date: string, day: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, day > d ? m - 1 : m, day)).toISOString().slice(0, 10);
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

function journey(kafkaBrokers: string | undefined): void {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let system: RunningSystem;
  let database: DatabaseLocation;
  let db: Client;
  let events: Events;
  let apiPort: number;
  let apiKey: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'billing-journey-'));
    // Business dates are run by the CLI only: the journey runs dates months ahead of the clock.
    ({ env, apiPort } = await systemEnv(dataDir, kafkaBrokers ? { KAFKA_BROKERS: kafkaBrokers } : {}));
    system = await startSystem(env);
    apiKey = (await readFile(path.join(dataDir, 'demo-api-key'), 'utf8')).trim();
    database = await locateDatabase({ dataDir });
    db = new Client({ connectionString: database.url });
    await db.connect();
    events = kafkaBrokers ? await kafkaEvents(kafkaBrokers) : outboxEvents(db);
  }, 180_000);

  afterAll(async () => {
    await events?.close();
    await db?.end();
    await database?.release();
    if (system) expect(await stopWithCtrlC(system)).toBe(0);
    await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  // The api's answers are read as the test expects them: field access on JSON is checked by the assertions.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const api = async (method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const response = await fetch(`http://127.0.0.1:${apiPort}${url}`, {
      method,
      headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text };
  };
  const one = async <T>(text: string, values: unknown[] = []): Promise<T> => (await query(db, sql<T>(text), values))[0];
  const runDate = (date: string): void => {
    const run = runCli(env, 'delinquency', 'run', '--as-of', date);
    // The CLI's heartbeat ("still working") goes to stderr when a run is slow, as on a loaded machine; nothing else may.
    const stderr = run.stderr.replace(/^delinquency: still working \(\d+ s\)\n/gm, '');
    expect({ status: run.status, stderr }).toEqual({ status: 0, stderr: '' });
  };

  it('bills, charges the late fee, resolves and goes on to the penny, every event agreeing with the ledger', async () => {
    const facility = await one<{ uuid: string; today: string }>(
      `SELECT uuid, (now() AT TIME ZONE time_zone)::date::text AS today FROM facilities WHERE name = 'Downtown Self Storage'`,
    );
    const group = await one<{ uuid: string }>(`SELECT uuid FROM unit_groups WHERE facility_uuid = $1 AND description = '10x10 Climate Controlled'`, [
      facility.uuid,
    ]);
    const lock = await one<{ uuid: string }>(`SELECT uuid FROM item_types WHERE name = 'Disc lock rental'`);
    const ops = '/api/demo/portfolios/v1';

    // The lead, its lease sent, the lease signed as the page's form does.
    const lead = await api('POST', '/shopping/demo/v1/leads', {
      facilityUuid: facility.uuid,
      unitGroupUuid: group.uuid,
      firstName: 'Journey',
      lastName: 'Tenant',
      email: 'journey.tenant@example.com',
      phone: '(646) 555-0177',
    });
    expect(lead.status).toBe(200);
    expect((await api('POST', `${ops}/facilities/${facility.uuid}/leads/${lead.body.leadUuid}/sendLease`)).status).toBe(200);
    // The link went to the tenant (the api process's mailbox) and the lease keeps only its hash: the journey gives
    // the lease a token it knows, as a tenant holding the link would.
    const token = 'billing-journey-signing-token';
    await query(
      db,
      sql(`UPDATE leases SET signing_token_hash = encode(sha256(convert_to($2, 'UTF8')), 'hex') WHERE lead_uuid = $1
           -- owner-bypass: the link is only sent, out of this test's reach; the lease is given a token the test knows`),
      [lead.body.leadUuid, token],
    );
    const signed = await fetch(`http://127.0.0.1:${apiPort}/leases/sign/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'agree=yes',
    });
    expect(signed.status).toBe(200);
    const rental = await one<{ uuid: string; rent: number; billingDay: number }>(
      `SELECT r.uuid, r.rent_in_pennies AS rent, r.billing_day_of_month AS "billingDay" FROM leads l JOIN rental_records r ON r.uuid = l.converted_rental_record_uuid WHERE l.uuid = $1`,
      [lead.body.leadUuid],
    );
    const rentalPath = `${ops}/facilities/${facility.uuid}/rentalRecords/${rental.uuid}`;
    const today = facility.today;
    // Month n is due on m<n>: the signing day, then the billing day of each month after it.
    const due = [today];
    for (let i = 0; i < 5; i++) due.push(nextDue(due.at(-1)!, rental.billingDay));
    const [m1, m2, m3, m4, m5, m6] = due as [string, string, string, string, string, string];

    // Month 1, at signing: the rent at the '$1 first month' rate and the $9.00 coverage (by the day when it is short).
    const firstDays = (Date.parse(m2) - Date.parse(m1)) / 86_400_000;
    const [y2, mo2] = m2.split('-').map(Number) as [number, number];
    const fullDays = (Date.parse(m2) - Date.UTC(y2, mo2 - 2, rental.billingDay)) / 86_400_000;
    const share = firstDays / fullDays;
    const firstRent = Math.round(rental.rent * share);
    const firstCredit = Math.round((rental.rent - 100) * share);
    const firstCoverage = Math.round(900 * share);

    // Paid at move-in, as the lease page asks.
    const moveIn = firstRent - firstCredit + firstCoverage;
    expect((await api('POST', `${rentalPath}/payments`, { amountInPennies: moveIn })).body.balanceInPennies).toBe(0);
    // The lock, added today: billed from month 2, $2 off in months 2 and 3 (its promotion covers months 1 to 3).
    expect((await api('POST', `${rentalPath}/services`, { itemTypeUuid: lock.uuid })).status).toBe(200);

    runDate(m2);
    const month2 = rental.rent + 900 + 500 - 200;
    expect((await api('POST', `${rentalPath}/payments`, { amountInPennies: month2 })).body.balanceInPennies).toBe(0);
    const newRent = rental.rent + 1000;
    expect((await api('POST', `${rentalPath}/rentChange`, { newRentInPennies: newRent, effectiveDate: addDays(m2, 3) })).status).toBe(200);

    // Month 3 unpaid: nothing through its grace days, OVERDUE with the late fee on the sixth day past due.
    for (const date of [m3, addDays(m3, 5)]) runDate(date);
    expect(await one('SELECT status FROM delinquencies WHERE rental_record_uuid = $1', [rental.uuid])).toBeUndefined();
    runDate(addDays(m3, 6));
    expect(await one('SELECT status::text FROM delinquencies WHERE rental_record_uuid = $1', [rental.uuid])).toEqual({ status: 'OVERDUE' });
    const month3 = newRent + 900 + 500 - 200;
    const pastDue = month3 + 2000;
    expect((await api('POST', `${rentalPath}/payments`, { amountInPennies: pastDue })).body.balanceInPennies).toBe(0);
    // The scheduler's billing consumer resolves it: PAID.
    await eventually(
      async () => expect(await one('SELECT status::text FROM delinquencies WHERE rental_record_uuid = $1', [rental.uuid])).toEqual({ status: 'PAID' }),
      {
        // Through Kafka on a loaded machine (the suite on two cores), this has taken more than 30 s.
        timeoutMs: 120_000,
      },
    );

    // Months 4 and 5, each paid in full: PAID stays.
    const month = newRent + 900 + 500;
    for (const date of [m4, m5]) {
      runDate(date);
      expect((await api('POST', `${rentalPath}/payments`, { amountInPennies: month })).body.balanceInPennies).toBe(0);
    }
    runDate(addDays(m5, 10));

    // The ledger, oldest first, to the penny (services of one period in item-type order).
    const ledger = (await api('GET', `${rentalPath}/ledger?limit=100`)).body as {
      entries: { kind: string; amountInPennies: number; dueOn: string | null; description: string; balanceAfterInPennies: number }[];
    };
    const rows = ledger.entries.map((e) => [e.kind, e.amountInPennies, e.dueOn, e.description]);
    const period = (from: string, to: string) => `${from} to ${addDays(to, -1)}`;
    const payment = (amount: number) => ['PAYMENT', -amount, null, 'Payment'];
    const services = (due: string, lockCredit: boolean) => [
      ['SERVICE_FEE', 900, due, 'Coverage premium (SAFE_LEASE)'],
      ['SERVICE_FEE', 500, due, 'Disc lock rental'],
      ...(lockCredit ? [['PROMOTION_CREDIT', -200, null, '$2 off lock for 3 months']] : []),
    ];
    expect(rows).toEqual([
      [
        firstDays === fullDays ? 'RENT' : 'MOVE_IN_PRORATION',
        firstRent,
        m1,
        firstDays === fullDays ? `Rent ${period(m1, m2)}` : `Rent ${period(m1, m2)}, prorated ${firstDays}/${fullDays} days`,
      ],
      ['PROMOTION_CREDIT', -firstCredit, null, '$1 first month'],
      ['SERVICE_FEE', firstCoverage, m1, 'Coverage premium (SAFE_LEASE)'],
      payment(moveIn),
      ['RENT', rental.rent, m2, `Rent ${period(m2, m3)}`],
      ...services(m2, true),
      payment(month2),
      ['RENT', newRent, m3, `Rent ${period(m3, m4)}`],
      ...services(m3, true),
      ['LATE_FEE', 2000, addDays(m3, 6), 'Late fee'],
      payment(pastDue),
      ['RENT', newRent, m4, `Rent ${period(m4, m5)}`],
      ...services(m4, false),
      payment(month),
      ['RENT', newRent, m5, `Rent ${period(m5, m6)}`],
      ...services(m5, false),
      payment(month),
    ]);
    expect(ledger).toMatchObject({ rentalRecordUuid: rental.uuid, balanceInPennies: 0, nextDueDate: m6 });

    // What a consumer received agrees with the ledger: every lifecycle event's balances and next due date, every
    // billing fact's balance after, each in its place.
    await eventually(
      async () => {
        const received = await events.of(rental.uuid);
        expect(received.lifecycle.map((e) => e.type)).toEqual([
          'moved-in',
          'recurring-service-change',
          'rent-change',
          'delinquency-status-change',
          'delinquency-status-change',
        ]);
        expect(received.billing.filter((e) => e.type === 'payment-recorded')).toHaveLength(5);
      },
      { timeoutMs: 60_000 },
    );
    const received = await events.of(rental.uuid);
    const shown = (e: Envelope) => [e.type, e.payload.unitRental?.rentalBalance, e.payload.tenantBalanceInPennies, e.payload.billingTemplate?.nextDueDate];
    expect(received.lifecycle.map(shown)).toEqual([
      ['moved-in', moveIn, moveIn, m2],
      ['recurring-service-change', 0, 0, m2],
      ['rent-change', 0, 0, m3],
      ['delinquency-status-change', pastDue, pastDue, m4],
      ['delinquency-status-change', 0, 0, m4],
    ]);
    expect(received.lifecycle.slice(3).map((e) => e.payload.delinquencyStatusChange?.delinquencyNewStatus)).toEqual(['OVERDUE', 'PAID']);
    expect(received.lifecycle[3]?.payload.delinquencyStatusChange?.delinquencyStatusChangeDate).toBe(addDays(m3, 6));
    // Billing facts: each charge with the balance it left, each payment with the balance after.
    const balances = ledger.entries;
    const afterCharges: number[] = [];
    const afterPayments: number[] = [];
    balances.forEach((entry, index) => {
      const next = balances[index + 1];
      if (entry.kind === 'PAYMENT') afterPayments.push(entry.balanceAfterInPennies);
      else if (entry.kind !== 'PROMOTION_CREDIT')
        afterCharges.push(next?.kind === 'PROMOTION_CREDIT' ? next.balanceAfterInPennies : entry.balanceAfterInPennies);
    });
    expect(received.billing.filter((e) => e.type === 'charge-posted').map((e) => e.payload.balanceAfterInPennies)).toEqual(afterCharges);
    expect(received.billing.filter((e) => e.type === 'payment-recorded').map((e) => e.payload.balanceAfterInPennies)).toEqual(afterPayments);
  }, 300_000);
}

describe('a tenant over five months of billing, embedded transport', () => journey(undefined));
describeWithKafka('a tenant over five months of billing, through Kafka', (brokers) => journey(brokers));
