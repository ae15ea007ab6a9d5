// The benchmark's baseline: bare node:http + pg, running the api's own SQL for operations 4 and 7 (imported
// from its build) as the same named prepared statements, with the same pool size; no framework, no auth, no
// validation, no logging.
'use strict';
const http = require('node:http');
const { Pool } = require('pg');
const { COVERAGES_STATEMENT } = require('../dist/shopping/catalog.queries');
const { SIZE_AND_TYPE_GROUPS_STATEMENT } = require('../dist/portfolio/portfolio.queries');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
// An idle connection that drops is replaced; unheard, pg's 'error' event would crash the server.
pool.on('error', (error) => process.stderr.write(`database connection lost: ${error.message}\n`));
const portfolioUuid = process.env.BENCH_PORTFOLIO_UUID;
const COVERAGES = /^\/shopping\/[^/]+\/v1\/coverages\/([0-9a-f-]{36})$/;
const SIZE_AND_TYPE = /^\/api\/[^/]+\/portfolios\/v1\/facilities\/([0-9a-f-]{36})\/unitGroups\/sizeAndType\/get_by_uuids$/;

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(body);
}

async function handle(req, res) {
  let match = COVERAGES.exec(req.url);
  if (req.method === 'GET' && match) {
    const { rows } = await pool.query({ ...COVERAGES_STATEMENT, values: [match[1], portfolioUuid] });
    return rows[0] ? send(res, 200, rows[0].body) : send(res, 404, '{}');
  }
  match = SIZE_AND_TYPE.exec(req.url);
  if (req.method === 'POST' && match) {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const { rows } = await pool.query({ ...SIZE_AND_TYPE_GROUPS_STATEMENT, values: [match[1], portfolioUuid, body.sizeAndTypeUnitGroupUuids] });
    return rows[0] ? send(res, 200, rows[0].body) : send(res, 404, '{}');
  }
  return send(res, 404, '{}');
}

http
  .createServer((req, res) => {
    handle(req, res).catch((error) => send(res, 500, JSON.stringify({ error: String(error) })));
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
