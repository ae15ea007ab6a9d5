// npm run bench:api — reads: operations 4 and 7 of the api against a bare node:http + pg server running the same
// SQL on the same data (the scale seed, 100 facilities). For each operation and server: req/s, p50 and p99 at
// maximum load (autocannon), then at a steady 500 req/s (paced-load.js, open loop: autocannon's overallRate
// sends each second's requests in one burst), over BENCH_ROUNDS rounds (default 2) run
// in ABBA order; the api/bare ratio. Writes: rent changes, payments, and payments each with an Idempotency-Key of
// its own (each commits the rental's update and its event in the outbox) on rentals drawn at random from the whole seed, open loop at each rate of
// BENCH_WRITE_RATES; achieved writes/s, p50 and p99. The machine's load average at the start and the end; target met
// or missed. Bounded: the whole run is killed after BENCH_TIMEOUT s.
// Environment: DATABASE_URL (else the embedded server under DATA_DIR), BENCH_RENTALS (rentals of the seed when
// it is created, default 1000000), BENCH_DURATION (seconds per measured run, default 10), BENCH_PARTS (reads,writes
// by default), BENCH_WRITE_RATES (writes/s, default 1000,1500), LOG_LEVEL of the api (default info, as in production:
// one access log line per request), BENCH_TIMEOUT (default 900 s).
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const { randomUUID } = require('node:crypto');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const { pacedLoad } = require('./paced-load');
const { createDataSource, locateDatabase, migrate } = require('@storage/persistence');
const { createApiKey } = require('../dist/auth/create-api-key');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const PORTFOLIO = 'bench';
const FACILITIES = 100;
const RENTALS = Number(process.env.BENCH_RENTALS ?? 1_000_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARM_UP = 3;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const TIMEOUT_S = Number(process.env.BENCH_TIMEOUT ?? 900);
const LOG_LEVEL = process.env.LOG_LEVEL ?? 'info';
const POOL_SIZE = process.env.DATABASE_POOL_SIZE ?? '10';
const CONNECTIONS = 50;
const FIXED_RATE = 500;
const TARGET_RATIO = 0.5;
const TARGET_P99_MS = 25;
const PARTS = new Set((process.env.BENCH_PARTS ?? 'reads,writes').split(','));
const WRITE_RATES = (process.env.BENCH_WRITE_RATES ?? '1000,1500').split(',').map(Number);
const TARGET_WRITES = 1000;
/** Rentals the writes are spread over: a random sample of the whole seed, so of nearly every unit group. */
const WRITE_SAMPLE = 50_000;
const API_PORT = 3971;
const BARE_PORT = 3972;

const log = (line) => process.stdout.write(`${line}\n`);
let stopping = false;
const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');

async function main() {
  const database = await locateDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR ?? path.join(ROOT, '.data') });
  const children = [];
  /** Stops the servers and waits for them, so none is still connected when the database stops. */
  const stopChildren = () => {
    stopping = true;
    const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
    for (const child of running) child.kill('SIGTERM');
    return Promise.all(running.map((child) => new Promise((resolve) => child.once('exit', resolve))));
  };
  // Stops by itself whatever happens: a hung server or database cannot keep the run going.
  const watchdog = setTimeout(() => {
    process.stderr.write(`bench:api: timed out after ${TIMEOUT_S} s\n`);
    void stopChildren()
      .then(() => database.release())
      .finally(() => process.exit(2));
  }, TIMEOUT_S * 1000);
  watchdog.unref();
  try {
    const env = { ...process.env, DATABASE_URL: database.url, DATABASE_POOL_SIZE: POOL_SIZE };
    // The servers do not migrate (the launcher does): a database seeded by an older version is brought up to date.
    await migrate(database.url);
    const dataSource = await createDataSource({ url: database.url, applicationName: 'bench' }).initialize();
    let [portfolio] = await dataSource.query('SELECT uuid FROM portfolios WHERE portfolio_id = $1', [PORTFOLIO]).catch(() => []);
    if (!portfolio) {
      log(`Seeding portfolio "${PORTFOLIO}": ${FACILITIES} facilities, ${RENTALS} rentals…`);
      const seeded = spawnSync(
        process.execPath,
        [
          path.join(__dirname, '..', 'dist', 'cli.js'),
          'seed',
          'scale',
          '--facilities',
          String(FACILITIES),
          '--rentals',
          String(RENTALS),
          '--portfolio',
          PORTFOLIO,
        ],
        { env, stdio: 'inherit' },
      );
      if (seeded.status !== 0) throw new Error('seed scale failed');
      [portfolio] = await dataSource.query('SELECT uuid FROM portfolios WHERE portfolio_id = $1', [PORTFOLIO]);
    }
    const facilities = await dataSource.query(
      `SELECT f.uuid, array_agg(s.uuid::text ORDER BY s.uuid) AS sizes FROM facilities f JOIN size_and_type_groups s ON s.facility_uuid = f.uuid
       WHERE f.portfolio_uuid = $1 GROUP BY f.uuid ORDER BY f.uuid`,
      [portfolio.uuid],
    );
    const [{ rentals, unitGroups }] = await dataSource.query(
      `SELECT (SELECT count(*)::int FROM rental_records WHERE portfolio_uuid = $1) AS rentals,
              (SELECT count(*)::int FROM unit_groups g JOIN facilities f ON f.uuid = g.facility_uuid WHERE f.portfolio_uuid = $1) AS "unitGroups"`,
      [portfolio.uuid],
    );
    const writeSample = PARTS.has('writes')
      ? await dataSource.query(
          `SELECT uuid, facility_uuid AS "facilityUuid", rent_in_pennies AS rent, unit_group_uuid AS "unitGroupUuid" FROM rental_records
            WHERE portfolio_uuid = $1 AND status = 'ACTIVE' ORDER BY md5(uuid::text || now()::text) LIMIT $2`,
          [portfolio.uuid, WRITE_SAMPLE],
        )
      : [];
    const { key } = await createApiKey(dataSource, { portfolioIds: [PORTFOLIO], scope: 'read', label: 'bench' });
    const { key: writeKey } = await createApiKey(dataSource, { portfolioIds: [PORTFOLIO], scope: 'write', label: 'bench writes' });
    await dataSource.destroy();

    const loadAtStart = loadAverage();
    // One key sends thousands of requests a second here: a limit that high keeps every request checked (the cost
    // measured) and none refused.
    const limits = {
      RATE_LIMIT_KEY_PER_MINUTE: process.env.RATE_LIMIT_KEY_PER_MINUTE ?? '6000000',
      RATE_LIMIT_KEY_BURST: process.env.RATE_LIMIT_KEY_BURST ?? '100000',
    };
    await start(
      children,
      'api',
      [path.join(__dirname, '..', 'dist', 'main.js')],
      { ...env, ...limits, API_PORT: String(API_PORT), LOG_LEVEL },
      `http://127.0.0.1:${API_PORT}/health/live`,
    );
    if (PARTS.has('reads')) {
      await start(children, 'bare', [path.join(__dirname, 'bare-server.js')], { ...env, PORT: String(BARE_PORT), BENCH_PORTFOLIO_UUID: portfolio.uuid }, null);
    }

    log(
      `\nData: ${facilities.length} facilities, ${unitGroups} unit groups, ${rentals} rentals. ${CONNECTIONS} connections, ${DURATION} s per run, ${ROUNDS} rounds (${WARM_UP} s warm-up), pool ${POOL_SIZE} each.`,
    );
    log(
      `api LOG_LEVEL=${LOG_LEVEL}${LOG_LEVEL === 'info' ? ' (an access log line per request, as in production)' : ''}. CPUs: ${os.cpus().length}. Load average (1/5/15 min) at start: ${loadAtStart}.`,
    );
    const readRows = PARTS.has('reads') ? await benchReads(facilities, key) : [];
    const writeRows = PARTS.has('writes') ? await benchWrites(writeSample, writeKey) : [];

    log(`\nLoad average (1/5/15 min): ${loadAtStart} at start, ${loadAverage()} at end, on ${os.cpus().length} CPUs.\n`);
    log(`Mean of ${ROUNDS} rounds:\n`);
    let ok = true;
    if (readRows.length > 0) {
      log(`| operation | server | load | req/s | p50 ms | p99 ms | non-2xx/errors |`);
      log('|---|---|---|---:|---:|---:|---:|');
      for (const row of readRows) {
        for (const server of ['api', 'bare']) {
          for (const [load, r] of [
            ['max', row[server].max],
            [`${FIXED_RATE} req/s`, row[server].fixed],
          ]) {
            log(`| ${row.operation} | ${server} | ${load} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.errors} |`);
          }
        }
      }
      log('');
      for (const row of readRows) {
        const ratio = row.api.max.rps / row.bare.max.rps;
        const errors = row.api.max.errors + row.api.fixed.errors;
        const ratioMet = ratio >= TARGET_RATIO;
        const p99Met = row.api.fixed.p99 < TARGET_P99_MS;
        const met = ratioMet && p99Met && errors === 0;
        ok &&= met;
        log(
          `${row.operation}: api/bare = ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO.toFixed(2)}: ${ratioMet ? 'met' : 'missed'}), ` +
            `api p99 @${FIXED_RATE} req/s = ${row.api.fixed.p99} ms (target < ${TARGET_P99_MS}: ${p99Met ? 'met' : 'missed'}), ` +
            `errors ${errors} → target ${met ? 'MET' : 'MISSED'}`,
        );
      }
      log('');
    }
    if (writeRows.length > 0) {
      log(`| write | offered writes/s | achieved writes/s | p50 ms | p99 ms | non-2xx/errors |`);
      log('|---|---:|---:|---:|---:|---:|');
      for (const row of writeRows) log(`| ${row.operation} | ${row.rate} | ${Math.round(row.rps)} | ${row.p50} | ${row.p99} | ${row.errors} |`);
      log('');
      for (const operation of new Set(writeRows.map((row) => row.operation))) {
        const rows = writeRows.filter((row) => row.operation === operation);
        const best = Math.max(...rows.map((row) => row.rps));
        const errors = rows.reduce((sum, row) => sum + row.errors, 0);
        const met = best >= TARGET_WRITES * 0.98 && errors === 0;
        ok &&= met;
        log(`${operation}: ${Math.round(best)} writes/s achieved (target ≥ ${TARGET_WRITES}), errors ${errors} → target ${met ? 'MET' : 'MISSED'}`);
      }
    }
    process.exitCode = ok ? 0 : 1;
  } finally {
    await stopChildren();
    await database.release();
    clearTimeout(watchdog);
  }
}

/** Operations 4 and 7 on the api and on the bare server: the mean of the rounds at maximum and at a steady load. */
async function benchReads(facilities, key) {
  const servers = { api: API_PORT, bare: BARE_PORT };
  let n = 0;
  const pickFacility = () => facilities[n++ % facilities.length];
  const operations = [
    {
      name: 'op 4 GET coverages',
      request: () => ({ method: 'GET', path: `/shopping/${PORTFOLIO}/v1/coverages/${pickFacility().uuid}` }),
    },
    {
      name: 'op 7 POST sizeAndType',
      request: () => {
        const facility = pickFacility();
        return {
          method: 'POST',
          path: `/api/${PORTFOLIO}/portfolios/v1/facilities/${facility.uuid}/unitGroups/sizeAndType/get_by_uuids`,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ sizeAndTypeUnitGroupUuids: facility.sizes.slice(0, 3) }),
        };
      },
    },
  ];
  const rows = [];
  for (const operation of operations) {
    for (const port of Object.values(servers)) await bench(port, key, operation.request, WARM_UP); // JIT, pools, prepared statements
    const runs = { api: [], bare: [] };
    // Rounds in ABBA order (api, bare, then bare, api…) so a load that drifts during the run hits both alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (const server of round % 2 === 0 ? ['api', 'bare'] : ['bare', 'api']) {
        const max = summary(await bench(servers[server], key, operation.request));
        const fixed = await pacedLoad({
          port: servers[server],
          rate: FIXED_RATE,
          durationS: DURATION,
          request: operation.request,
          headers: { 'x-api-key': key },
          connections: CONNECTIONS,
        });
        runs[server].push({ max, fixed });
        log(
          `  ${operation.name}, round ${round + 1}, ${server}: ${Math.round(max.rps)} req/s max (p99 ${max.p99} ms); @${FIXED_RATE} req/s p99 ${fixed.p99} ms. Load ${loadAverage()}`,
        );
      }
    }
    rows.push({ operation: operation.name, api: meanOf(runs.api), bare: meanOf(runs.bare) });
  }
  return rows;
}

/**
 * Rent changes, then payments, open loop at each of WRITE_RATES: the mean of the rounds per rate. Rentals are
 * taken in turn from the sample; each turn raises a rental's rent by one penny more than it was at the start, so no
 * change repeats the current rent (409). The effective date is two days on, today or later in every time zone.
 * A payment is one penny; a keyed payment carries a new Idempotency-Key, as a client that may retry sends it.
 */
async function benchWrites(sample, key) {
  const effectiveDate = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  const operations = [
    { name: 'rent change', action: 'rentChange', body: (rental, turn) => ({ newRentInPennies: rental.rent + turn + 1, effectiveDate }) },
    { name: 'payment', action: 'payments', body: () => ({ amountInPennies: 1 }) },
    { name: 'keyed payment', action: 'payments', body: () => ({ amountInPennies: 1 }), headers: () => ({ 'idempotency-key': randomUUID() }) },
  ];
  const groups = new Set(sample.map((rental) => rental.unitGroupUuid)).size;
  log(
    `\nWrites: ${operations.map((operation) => operation.name).join(', ')} over ${sample.length} active rentals of ${groups} unit groups, open loop at ${WRITE_RATES.join(', ')} writes/s.`,
  );
  const rows = [];
  for (const operation of operations) {
    let n = 0;
    const request = () => {
      const rental = sample[n % sample.length];
      const turn = Math.floor(n++ / sample.length);
      return {
        method: 'POST',
        path: `/api/${PORTFOLIO}/portfolios/v1/facilities/${rental.facilityUuid}/rentalRecords/${rental.uuid}/${operation.action}`,
        headers: { 'content-type': 'application/json', ...operation.headers?.() },
        body: JSON.stringify(operation.body(rental, turn)),
      };
    };
    const paced = (rate, durationS) => pacedLoad({ port: API_PORT, rate, durationS, request, headers: { 'x-api-key': key }, connections: CONNECTIONS });
    await paced(Math.min(...WRITE_RATES), WARM_UP);
    for (const rate of WRITE_RATES) {
      const runs = [];
      for (let round = 0; round < ROUNDS; round++) {
        const run = await paced(rate, DURATION);
        runs.push(run);
        log(
          `  ${operation.name} @${rate}/s, round ${round + 1}: ${Math.round(run.rps)} writes/s, p50 ${run.p50} ms, p99 ${run.p99} ms, errors ${run.errors}. Load ${loadAverage()}`,
        );
      }
      const mean = (pick) => Math.round((runs.reduce((sum, run) => sum + pick(run), 0) / runs.length) * 10) / 10;
      rows.push({
        operation: operation.name,
        rate,
        rps: mean((run) => run.rps),
        p50: mean((run) => run.p50),
        p99: mean((run) => run.p99),
        errors: runs.reduce((sum, run) => sum + run.errors, 0),
      });
    }
  }
  return rows;
}

/** Mean of the rounds, per load level; errors are summed. */
function meanOf(runs) {
  const mean = (pick) => runs.reduce((sum, run) => sum + pick(run), 0) / runs.length;
  const level = (name) => ({
    rps: mean((run) => run[name].rps),
    p50: Math.round(mean((run) => run[name].p50) * 10) / 10,
    p99: Math.round(mean((run) => run[name].p99) * 10) / 10,
    errors: runs.reduce((sum, run) => sum + run[name].errors, 0),
  });
  return { max: level('max'), fixed: level('fixed') };
}

function summary(result) {
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

function bench(port, key, request, duration = DURATION) {
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration,
    headers: { 'x-api-key': key },
    requests: [
      {
        setupRequest: (req) => {
          const next = request();
          return { ...req, ...next, headers: { ...req.headers, ...next.headers, 'x-api-key': key } };
        },
      },
    ],
  });
}

/** Starts a server and waits until it answers; `children` holds it from the start, so it is stopped even if it never gets ready. */
async function start(children, name, args, env, healthUrl) {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  // The last lines of its output are kept, and shown if it stops before the end: a run with errors says why.
  const tail = [];
  child.stdout.on('data', (chunk) => {
    tail.push(...String(chunk).split('\n').filter(Boolean));
    tail.splice(0, Math.max(0, tail.length - 5));
  });
  child.once('exit', (code, signal) => {
    if (!stopping) process.stderr.write(`bench:api: ${name} server stopped early (code ${code}, signal ${signal}); last output:\n${tail.join('\n')}\n`);
  });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start`)), 30_000);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
    if (healthUrl === null) {
      child.stdout.once('data', () => (clearTimeout(timer), resolve()));
      return;
    }
    const poll = () =>
      fetch(healthUrl).then(
        (response) => (response.ok ? (clearTimeout(timer), resolve()) : setTimeout(poll, 200)),
        () => setTimeout(poll, 200),
      );
    poll();
  });
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exitCode = 1;
});
