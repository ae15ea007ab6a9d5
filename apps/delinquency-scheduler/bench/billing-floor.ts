/*
 * The floor of billing's writes: what the worst day's writes cost the database alone, with no rules, no Node and no
 * round trips. Every active rental due on the date gets its rent and its service fee posted by one SQL statement per
 * facility, through the ledger's table as it is (the balance trigger and its check of each entry's rental, the
 * indexes, the charge keys' ON CONFLICT, the rentals locked in uuid order), half the facilities also with a
 * `charge-posted` outbox row per charge, built in SQL in the envelope's shape. Not billing (no promotions, proration,
 * rent changes): a lower bound for any implementation of it on these tables, to hold the business-day run's billing
 * against. `npm run bench:billing-floor [-- --sizes 100000,1000000 --facilities 100 --reuse]`; `--reuse` works on a
 * copy of the worst-day dataset `bench:scheduler --reuse` keeps (generated once).
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { topicFor } from '@storage/domain';
import { outboxInsert } from '@storage/messaging';
import { query, sql } from '@storage/persistence';
import { datasetDatabase } from './generated-dataset';
import { processCpuSeconds } from './session-cpu';

const BUSINESS_DATE = '2025-06-01';

const CHARGES = `
  due AS (
    SELECT r.uuid, r.next_due_date, r.rent_in_pennies FROM rental_records r
     WHERE r.facility_uuid = $1 AND r.status = 'ACTIVE' AND r.next_due_date <= $2::date ORDER BY r.uuid FOR NO KEY UPDATE OF r
  ), charges AS (
    SELECT d.uuid AS rental, 'RENT'::ledger_entry_kind AS kind, 'Rent' AS description, d.rent_in_pennies AS amount, d.next_due_date AS due_on,
           NULL::uuid AS item FROM due d
    UNION ALL
    SELECT d.uuid, 'SERVICE_FEE', s.description, s.amount_in_pennies, d.next_due_date, s.item_type_uuid
      FROM due d JOIN rental_services s ON s.rental_record_uuid = d.uuid
  ), posted AS (
    INSERT INTO rental_ledger_entries AS l (uuid, rental_record_uuid, kind, description, amount_in_pennies, posted_on, due_on, period_from,
                                            period_to, item_type_uuid, charge_key)
    SELECT uuidv7(), c.rental, c.kind, c.description, c.amount, $2::date, c.due_on, c.due_on, (c.due_on + interval '1 month')::date, c.item,
           -- periodChargeKey's form (@storage/rental-ledger): kind, item type or '-', due date
           c.kind || ':' || coalesce(c.item::text, '-') || ':' || c.due_on
      FROM charges c ORDER BY c.rental
    ON CONFLICT (rental_record_uuid, charge_key) WHERE charge_key IS NOT NULL DO NOTHING
    RETURNING l.uuid, l.rental_record_uuid, l.amount_in_pennies, l.description, l.due_on
  )`;

/** The charges alone. */
const POST = sql<unknown, [string, string]>(`WITH ${CHARGES} SELECT count(*) FROM posted`);

/** The charges and a charge-posted outbox row each, inserted as the outbox's writers insert them ($3 topic, $4 source). */
const POST_WITH_FACTS = sql<unknown, [string, string, string, string]>(`WITH ${CHARGES}
  ${outboxInsert(
    `(SELECT $3::text AS topic, p.rental_record_uuid::text AS key, 'charge-posted' AS type, p.uuid::text AS event_id,
             json_build_object('eventId', p.uuid, 'type', 'charge-posted', 'occurredAt', now(), 'portfolio', 'bench', 'key', p.rental_record_uuid,
               'filters', json_build_object('facilityUuid', NULL, 'unitType', NULL, 'amenityUuids', '[]'::json),
               'payload', json_build_object('rentalRecordUuid', p.rental_record_uuid, 'chargeUuid', p.uuid, 'amountInPennies', p.amount_in_pennies,
                 'description', p.description, 'balanceAfterInPennies', p.amount_in_pennies, 'dueDate', p.due_on)) AS envelope
        FROM posted p) AS e`,
    '$4::text',
  )}`);

const BACKEND = sql<{ pid: number }>('SELECT pg_backend_pid() AS pid');
const FACILITIES = sql<{ uuid: string }>('SELECT uuid FROM facilities ORDER BY uuid');
const BEGIN = sql('BEGIN');
const COMMIT = sql('COMMIT');
const POSTED = sql<{ billed: number; entries: number }, [readonly string[], string]>(
  `SELECT count(DISTINCT e.rental_record_uuid)::int AS billed, count(*)::int AS entries
     FROM rental_ledger_entries e JOIN rental_records r ON r.uuid = e.rental_record_uuid
    WHERE r.facility_uuid = ANY($1::uuid[]) AND e.posted_on = $2::date`,
);

interface Floor {
  rentals: number;
  variant: string;
  billed: number;
  entries: number;
  cpuSeconds: number;
}

const { values } = parseArgs({
  options: { sizes: { type: 'string', default: '100000,1000000' }, facilities: { type: 'string', default: '100' }, reuse: { type: 'boolean', default: false } },
});

/** One size: a worst-day scale seed, half its facilities billed with facts and half without, one session, one statement a facility. */
async function measure(rentals: number, facilities: number): Promise<Floor[]> {
  const dataset = { facilities, rentals, businessDate: BUSINESS_DATE, spread: 'worst', historyMonths: 0 } as const;
  const database = await datasetDatabase(`bench_billing_floor_${rentals}`, dataset, { reuse: values.reuse });
  const session = new Client({ connectionString: database.url });
  try {
    await session.connect();
    // The generation's dirty pages written out before the measurement, as a live database has long done.
    await query(session, sql('CHECKPOINT'));
    const [backend] = await query(session, BACKEND);
    const pid = backend?.pid ?? 0;
    const facilityUuids = (await query(session, FACILITIES)).map((row) => row.uuid);
    const half = Math.ceil(facilityUuids.length / 2);
    const floors: Floor[] = [];
    for (const [variant, post, ofVariant] of [
      ['charges', (facility: string) => query(session, POST, [facility, BUSINESS_DATE]), facilityUuids.slice(0, half)],
      [
        'charges + charge-posted facts',
        (facility: string) => query(session, POST_WITH_FACTS, [facility, BUSINESS_DATE, topicFor('charge-posted'), 'delinquency-scheduler']),
        facilityUuids.slice(half),
      ],
    ] as const) {
      const before = processCpuSeconds(pid);
      for (const facility of ofVariant) {
        await query(session, BEGIN);
        await post(facility);
        await query(session, COMMIT);
      }
      const cpuSeconds = processCpuSeconds(pid) - before;
      const [counted] = await query(session, POSTED, [ofVariant, BUSINESS_DATE]);
      floors.push({ rentals, variant, billed: counted?.billed ?? 0, entries: counted?.entries ?? 0, cpuSeconds });
    }
    return floors;
  } finally {
    await session.end().catch(() => undefined);
    await database.drop();
  }
}

async function main(): Promise<void> {
  const floors: Floor[] = [];
  for (const size of values.sizes.split(',').map(Number)) {
    process.stderr.write(`measuring the floor at ${size} rentals ...\n`);
    floors.push(...(await measure(size, Number(values.facilities))));
  }
  const header = ['rentals', 'variant', 'billed', 'entries', 'CPU s db', 'µs db / billed rental'];
  const lines = floors.map((f) =>
    [f.rentals, f.variant, f.billed, f.entries, f.cpuSeconds.toFixed(1), ((f.cpuSeconds * 1e6) / f.billed).toFixed(1)].map(String),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => line[i]?.length ?? 0)));
  const format = (cells: string[]) => cells.map((cell, i) => cell.padStart(widths[i] ?? 0)).join('  ');
  process.stdout.write(
    `\nThe floor of billing's writes on the worst day (${BUSINESS_DATE}), one database session, one statement a facility\n\n` +
      [format(header), format(widths.map((w) => '-'.repeat(w))), ...lines.map(format)].join('\n') +
      '\n',
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
