import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describeWithKafka, eventually } from '@storage/testing';
import { localReceiver, readyOf, startListen, verified, type Listener } from './support/listen';
import { runCli, startSystem, stopWithCtrlC, systemEnv, type RunningSystem } from './support/system';

const EVENT_TYPES = ['moved-in', 'moved-out', 'rent-change', 'delinquency-status-change', 'recurring-service-change', 'auction', 'transfer'] as const;

/** The committed OpenAPI document, as integrators get it (openapi.test in apps/api checks it is what the code generates). */
const document = JSON.parse(readFileSync(path.resolve(__dirname, '../../../apps/api/openapi.json'), 'utf8')) as {
  webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: { $ref?: string } }> } } }>;
};
// OpenAPI 3.1 schemas are JSON Schema 2020-12; `$ref`s resolve inside the document.
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
ajv.addSchema(document, 'openapi');

/** The validator of a delivery body of `type`: its webhook's request body schema in the document. */
function validatorOf(type: string): ValidateFunction {
  const { $ref } = document.webhooks[type].post.requestBody.content['application/json'].schema;
  const validate = $ref === undefined ? undefined : ajv.getSchema(`openapi${$ref}`);
  if (validate === undefined) throw new Error(`no schema for ${type}`);
  return validate;
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Today's date where the facility is (YYYY-MM-DD). */
function todayIn(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

/**
 * The OpenAPI document's `webhooks` section is the contract an integrator generates a receiver from: every real
 * delivery of each of the seven event types, caused through the public API and the business-day CLI of the running
 * system and received through `webhooks listen`, validates against the schema of its own type.
 */
function contractSuite(kafkaBrokers: string | undefined): void {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let system: RunningSystem;
  let apiPort: number;
  let apiKey: string;
  let receiver: Awaited<ReturnType<typeof localReceiver>>;
  let listener: Listener | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'webhook-contract-'));
    ({ env, apiPort } = await systemEnv(dataDir, { TMPDIR: dataDir, ...(kafkaBrokers ? { KAFKA_BROKERS: kafkaBrokers } : {}) }));
    system = await startSystem(env);
    apiKey = (await readFile(path.join(dataDir, 'demo-api-key'), 'utf8')).trim();
    receiver = await localReceiver();
  }, 180_000);

  afterAll(async () => {
    if (listener && listener.process.exitCode === null && listener.process.signalCode === null) process.kill(-listener.process.pid!, 'SIGKILL');
    receiver?.server.close();
    if (system) expect(await stopWithCtrlC(system)).toBe(0);
    await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers read as the test expects them
  const api = async (method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const response = await fetch(`http://127.0.0.1:${apiPort}${url}`, {
      method,
      headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text };
  };
  /** The answer's body, once its status is 200 (else the test fails, showing what the api said). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers read as the test expects them
  const ok = async (method: string, url: string, body?: unknown): Promise<any> => {
    const answer = await api(method, url, body);
    expect({ method, url, status: answer.status, body: answer.status === 200 ? undefined : answer.body }).toEqual({
      method,
      url,
      status: 200,
      body: undefined,
    });
    return answer.body;
  };
  const businessDay = (date: string, facility: string): void => {
    const run = runCli(env, 'business-day', 'run', '--as-of', date, '--facility', facility);
    // The CLI's heartbeat ("still working") goes to stderr when a run is slow, as on a loaded machine; nothing else may.
    const stderr = run.stderr.replace(/^business-day: still working \(\d+ s\)\n/gm, '');
    expect({ date, status: run.status, stderr }).toEqual({ date, status: 0, stderr: '' });
  };

  it('delivers each of the seven event types for real, every delivery valid against its own type in the document', async () => {
    listener = startListen({ ...env, STORAGE_API_KEY: apiKey }, '--api', `http://127.0.0.1:${apiPort}`, '--portfolio', 'demo', '--forward-to', receiver.url);
    const { secret } = await readyOf(listener);

    const [facility] = (await ok('GET', '/shopping/demo/v1/facilities')) as {
      facilityUuid: string;
      timeZone: string;
      unitGroups: { unitGroupUuid: string; numVacantUnits: number }[];
    }[];
    const ops = `/api/demo/portfolios/v1`;
    const rentals = `${ops}/facilities/${facility.facilityUuid}/rentalRecords`;
    const today = todayIn(facility.timeZone);
    // Rentals that are not delinquent (a delinquent rental cannot be transferred), each used for one event.
    const active = (await ok('GET', `${rentals}?status=ACTIVE&limit=50`)).rentalRecords as {
      rentalRecordUuid: string;
      rentInPennies: number;
      delinquencyStatus: string | null;
    }[];
    const [forRent, forService, forTransfer, forMoveOut] = active.filter((rental) => rental.delinquencyStatus === null);
    expect(forMoveOut).toBeDefined();

    // rent-change
    await ok('POST', `${rentals}/${forRent.rentalRecordUuid}/rentChange`, {
      newRentInPennies: forRent.rentInPennies + 100,
      effectiveDate: addDays(today, 40),
    });

    // recurring-service-change: a recurring service of the portfolio's, put by the operator, added to a rental.
    const service = randomUUID();
    await ok('PUT', `${ops}/itemTypes/${service}`, { name: 'Contract test lock', kind: 'SERVICE', priceInPennies: 700, isRecurring: true });
    await ok('POST', `${rentals}/${forService.rentalRecordUuid}/services`, { itemTypeUuid: service });

    // transfer: to a unit the operator adds to a unit group of the facility, so it is vacant.
    const unit = randomUUID();
    await ok('PUT', `${ops}/facilities/${facility.facilityUuid}/units/${unit}`, { unitGroupUuid: facility.unitGroups[0].unitGroupUuid, name: 'CT-1' });
    await ok('POST', `${rentals}/${forTransfer.rentalRecordUuid}/transfer`, { newUnitUuid: unit });

    // moved-out
    await ok('POST', `${rentals}/${forMoveOut.rentalRecordUuid}/moveOut`);

    // moved-in: a lead, its lease sent, signed with the link the tenant got (the local mailbox, `DATA_DIR/mailbox`).
    const group = facility.unitGroups.find((candidate) => candidate.numVacantUnits > 0)!;
    const email = `contract.${Date.now()}@example.com`;
    const lead = await ok('POST', '/shopping/demo/v1/leads', {
      facilityUuid: facility.facilityUuid,
      unitGroupUuid: group.unitGroupUuid,
      firstName: 'Contract',
      lastName: 'Tenant',
      email,
    });
    await ok('POST', `${ops}/facilities/${facility.facilityUuid}/leads/${lead.leadUuid}/sendLease`);
    let link: string | undefined;
    await eventually(
      async () => {
        const mailbox = path.join(dataDir, 'mailbox');
        const texts = await Promise.all((await readdir(mailbox)).map((file) => readFile(path.join(mailbox, file), 'utf8')));
        link = texts.filter((text) => text.includes(`To: ${email}`)).map((text) => /https?:\/\/\S+\/leases\/sign\/[^\s"<>]+/.exec(text)?.[0])[0];
        expect(link).toBeDefined();
      },
      { timeoutMs: 30_000 },
    );
    const signed = await fetch(link!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'agree=yes' });
    expect(signed.status).toBe(200);
    const moved = await ok('GET', `/shopping/demo/v1/facilities/tenant/${lead.leadUuid}`);
    const rental: string = moved.unitRentalRecordUuid;

    // delinquency-status-change and auction: the move-in charge (due today) left unpaid, under a short schedule, one
    // business day after another until the rental reaches AUCTION (which calls for an auction), then the operator
    // schedules the sale.
    await ok('PUT', `${ops}/facilities/${facility.facilityUuid}/delinquencySchedule`, {
      graceDays: 1,
      overlockDay: 2,
      lienDay: 3,
      auctionDay: 4,
      lateFeeInPennies: 2000,
    });
    const statusOf = async (): Promise<string | null | undefined> => {
      for (let after: string | null = ''; after !== null;) {
        const page = await ok('GET', `${rentals}?status=ACTIVE&limit=200${after ? `&after=${after}` : ''}`);
        const found = (page.rentalRecords as { rentalRecordUuid: string; delinquencyStatus: string | null }[]).find(
          (candidate) => candidate.rentalRecordUuid === rental,
        );
        if (found) return found.delinquencyStatus;
        after = page.nextPageAfter as string | null;
      }
      return undefined;
    };
    let day = today;
    for (let i = 0; i < 8 && (await statusOf()) !== 'AUCTION'; i++) businessDay((day = addDays(day, 1)), facility.facilityUuid);
    expect(await statusOf()).toBe('AUCTION');
    await ok('POST', `${rentals}/${rental}/auction/schedule`, { scheduledOn: addDays(day, 30) });

    // Every event caused above received (besides those of the demo rentals the business days made delinquent).
    const caused: [type: (typeof EVENT_TYPES)[number], rental: string, detail?: (event: Record<string, unknown>) => boolean][] = [
      ['rent-change', forRent.rentalRecordUuid],
      ['recurring-service-change', forService.rentalRecordUuid],
      ['transfer', forTransfer.rentalRecordUuid],
      ['moved-out', forMoveOut.rentalRecordUuid],
      ['moved-in', rental],
      ['delinquency-status-change', rental, (event) => (event.delinquencyStatusChange as { delinquencyNewStatus: string }).delinquencyNewStatus === 'AUCTION'],
      ['auction', rental, (event) => (event.auction as { auctionStage: string }).auctionStage === 'CREATED'],
      ['auction', rental, (event) => (event.auction as { auctionStage: string }).auctionStage === 'SCHEDULED'],
    ];
    let bodies: { data: Record<string, unknown>[]; test: boolean }[] = [];
    await eventually(
      () => {
        bodies = receiver.received.map((delivery) => verified(secret, delivery));
        const missing = caused.filter(
          ([type, about, detail]) =>
            !bodies.some(({ data: [event] }) => event.event === type && JSON.stringify(event).includes(about) && (detail?.(event) ?? true)),
        );
        expect(missing.map(([type, about]) => `${type} of ${about}`)).toEqual([]);
      },
      { timeoutMs: 120_000 },
    );
    expect(new Set(bodies.map((body) => body.data[0].event))).toEqual(new Set(EVENT_TYPES));
    expect(bodies.filter((body) => body.test !== false)).toEqual([]);

    // Each against the schema of its own type: every error of every delivery that does not match.
    const invalid = bodies.flatMap((body) => {
      const type = body.data[0].event as string;
      const validate = validatorOf(type);
      return validate(body) ? [] : [{ type, errors: validate.errors, body }];
    });
    expect(invalid).toEqual([]);
  }, 600_000);
}

describe('the webhooks contract, real deliveries, embedded transport', () => contractSuite(undefined));
describeWithKafka('the webhooks contract, real deliveries, through Kafka', (brokers) => contractSuite(brokers));
