// The Deployments' init container (deploy/scripts/wait-for-migrations.js) against a real PostgreSQL: it holds while
// the database lacks the image's migrations, and lets the pod start once the migrate Job has applied them.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import persistence from '@storage/persistence';
import { repoRoot } from '../src/deploy.mjs';

const { freePort, migrate, startEmbeddedPostgres } = persistence;
const SCRIPT = path.join(repoRoot, 'deploy/scripts/wait-for-migrations.js');

let dataDir;
let server;
before(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'deploy-check-pg-'));
  server = await startEmbeddedPostgres({ dataDir, port: await freePort(), ephemeral: true });
});
after(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

async function createDatabase(name) {
  const client = new pg.Client({ connectionString: server.url('postgres') });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return server.url(name);
}

/** Starts the script; `output()` is what it printed so far, `exit` resolves with its exit code. */
function startWaiting(env) {
  const child = spawn(process.execPath, [SCRIPT], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, WAIT_FOR_MIGRATIONS_INTERVAL_SECONDS: '0.2', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.on('data', (chunk) => (text += chunk));
  child.stderr.on('data', (chunk) => (text += chunk));
  const exit = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exit, output: () => text };
}

async function until(condition, what, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('waits on an empty database, then lets the pod start once the migrations are applied', async () => {
  const url = await createDatabase('wait_then_go');
  const waiting = startWaiting({ DATABASE_URL: url });
  try {
    await until(() => (waiting.output().match(/not applied yet/g) ?? []).length >= 2, 'two checks that find migrations missing');
    assert.equal(waiting.child.exitCode, null, 'still waiting');
    assert.match(waiting.output(), /migration\(s\) not applied yet, first \S+; waiting for the migrate Job/);
    await migrate(url);
    const code = await Promise.race([waiting.exit, new Promise((resolve) => setTimeout(() => resolve('timeout'), 30_000))]);
    assert.equal(code, 0, waiting.output());
    assert.match(waiting.output(), /every migration of this image is applied/);
  } finally {
    waiting.child.kill();
  }
});

test('creates nothing in the database it waits on (read-only)', async () => {
  const url = await createDatabase('wait_read_only');
  const waiting = startWaiting({ DATABASE_URL: url });
  try {
    await until(() => /not applied yet/.test(waiting.output()), 'a check');
  } finally {
    waiting.child.kill();
    await waiting.exit;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT count(*)::int AS tables FROM pg_tables WHERE schemaname = 'public'`);
    assert.equal(rows[0].tables, 0);
  } finally {
    await client.end();
  }
});

test('goes on waiting while the database is unreachable', async () => {
  const waiting = startWaiting({ DATABASE_URL: `postgres://nobody:nothing@127.0.0.1:${await freePort()}/none` });
  try {
    await until(() => (waiting.output().match(/database not reachable yet/g) ?? []).length >= 2, 'two failed checks');
    assert.equal(waiting.child.exitCode, null);
  } finally {
    waiting.child.kill();
    await waiting.exit;
  }
});

test('refuses to start without DATABASE_URL', async () => {
  const waiting = startWaiting({});
  assert.equal(await waiting.exit, 1);
  assert.match(waiting.output(), /DATABASE_URL is required/);
});
