// npm run bench:api — operations 4 and 7 of the api against a bare node:http + pg server running the same
// SQL on the same data (the scale seed, 100 facilities). Prints req/s and p99 at full load, p99 at 500 req/s,
// and the ratio. Environment: DATABASE_URL (else the embedded server under DATA_DIR), BENCH_RENTALS
// (rentals of the seed when it is created, default 100000), BENCH_DURATION (seconds per run, default 10).
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const path = require('node:path');
const autocannon = require('autocannon');
const { createDataSource, locateDatabase } = require('@storage/persistence');
const { createApiKey } = require('../dist/auth/create-api-key');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const PORTFOLIO = 'bench';
const FACILITIES = 100;
const RENTALS = Number(process.env.BENCH_RENTALS ?? 100_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 50;
const FIXED_RATE = 500;
const API_PORT = 3971;
const BARE_PORT = 3972;

const log = (line) => process.stdout.write(`${line}\n`);

async function main() {
  const database = await locateDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR ?? path.join(ROOT, '.data') });
  const children = [];
  try {
    const env = { ...process.env, DATABASE_URL: database.url };
    const dataSource = await createDataSource({ url: database.url, applicationName: 'bench' }).initialize();
    let [portfolio] = await dataSource.query('SELECT uuid FROM portfolios WHERE portfolio_id = $1', [PORTFOLIO]).catch(() => []);
    if (!portfolio) {
      log(`Seeding portfolio "${PORTFOLIO}": ${FACILITIES} facilities, ${RENTALS} rentals…`);
      const seeded = spawnSync(process.execPath, [path.join(__dirname, '..', 'dist', 'cli.js'), 'seed', 'scale', '--facilities', String(FACILITIES), '--rentals', String(RENTALS), '--portfolio', PORTFOLIO], { env, stdio: 'inherit' });
      if (seeded.status !== 0) throw new Error('seed scale failed');
      [portfolio] = await dataSource.query('SELECT uuid FROM portfolios WHERE portfolio_id = $1', [PORTFOLIO]);
    }
    const facilities = await dataSource.query(
      `SELECT f.uuid, array_agg(s.uuid::text ORDER BY s.uuid) AS sizes FROM facilities f JOIN size_and_type_groups s ON s.facility_uuid = f.uuid
       WHERE f.portfolio_uuid = $1 GROUP BY f.uuid ORDER BY f.uuid`,
      [portfolio.uuid],
    );
    const [{ rentals }] = await dataSource.query('SELECT count(*)::int AS rentals FROM rental_records WHERE portfolio_uuid = $1', [portfolio.uuid]);
    const { key } = await createApiKey(dataSource, { portfolioIds: [PORTFOLIO], scope: 'read', label: 'bench' });
    await dataSource.destroy();

    children.push(await start('api', [path.join(__dirname, '..', 'dist', 'main.js')], { ...env, API_PORT: String(API_PORT), LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' }, `http://127.0.0.1:${API_PORT}/health/live`));
    children.push(await start('bare', [path.join(__dirname, 'bare-server.js')], { ...env, PORT: String(BARE_PORT), BENCH_PORTFOLIO_UUID: portfolio.uuid }, null));

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
            headers: { 'content-type': 'application/json', 'x-api-key': key },
            body: JSON.stringify({ sizeAndTypeUnitGroupUuids: facility.sizes.slice(0, 3) }),
          };
        },
      },
    ];

    log(`\nData: ${facilities.length} facilities, ${rentals} rentals. ${CONNECTIONS} connections, ${DURATION} s per run.`);
    const rows = [];
    for (const operation of operations) {
      const result = {};
      for (const [server, port] of [['api', API_PORT], ['bare', BARE_PORT]]) {
        await bench(port, key, operation.request, undefined, 3); // warm-up: JIT, pools, plans
        const max = await bench(port, key, operation.request);
        const fixed = await bench(port, key, operation.request, FIXED_RATE);
        result[server] = { rps: max.requests.average, p99: max.latency.p99, p99At500: fixed.latency.p99, errors: max.non2xx + max.errors + fixed.non2xx + fixed.errors };
      }
      rows.push({ operation: operation.name, ...result });
    }

    log('\n| operation | server | req/s (max) | p99 ms (max) | p99 ms @500 req/s | non-2xx/errors |');
    log('|---|---|---:|---:|---:|---:|');
    for (const row of rows) {
      for (const server of ['api', 'bare']) {
        const r = row[server];
        log(`| ${row.operation} | ${server} | ${Math.round(r.rps)} | ${r.p99} | ${r.p99At500} | ${r.errors} |`);
      }
    }
    log('');
    let ok = true;
    for (const row of rows) {
      const ratio = row.api.rps / row.bare.rps;
      const pass = ratio >= 0.5 && row.api.p99At500 < 25 && row.api.errors === 0;
      ok &&= pass;
      log(`${row.operation}: api/bare = ${ratio.toFixed(2)} (target ≥ 0.50), api p99 @500 req/s = ${row.api.p99At500} ms (target < 25) → ${pass ? 'PASS' : 'FAIL'}`);
    }
    process.exitCode = ok ? 0 : 1;
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await database.release();
  }
}

function bench(port, key, request, overallRate, duration = DURATION) {
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration,
    ...(overallRate ? { overallRate } : {}),
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

async function start(name, args, env, healthUrl) {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start`)), 30_000);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
    if (healthUrl === null) {
      child.stdout.once('data', () => (clearTimeout(timer), resolve()));
      return;
    }
    child.stdout.resume();
    const poll = () =>
      fetch(healthUrl).then(
        (response) => (response.ok ? (clearTimeout(timer), resolve()) : setTimeout(poll, 200)),
        () => setTimeout(poll, 200),
      );
    poll();
  });
  return child;
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exitCode = 1;
});
