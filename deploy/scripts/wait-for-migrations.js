#!/usr/bin/env node
/*
 * Init container of every Deployment in deploy/: waits until the database at DATABASE_URL has every migration
 * this image carries, so a new version's pods never serve on a schema older than their code, whatever order the
 * migrate Job and the Deployments are applied in. Read-only: it never migrates (the Job does, one at a time) and
 * creates nothing. Ships in every image (the Dockerfiles copy the repository) and runs from /repo:
 *   node deploy/scripts/wait-for-migrations.js
 * WAIT_FOR_MIGRATIONS_INTERVAL_SECONDS (5) between checks. It waits without end; the Deployment's
 * progressDeadlineSeconds reports a rollout stuck on a migration that never ran.
 */
'use strict';

const { pendingMigrationsAt } = require('@storage/persistence');

const url = process.env.DATABASE_URL;
const intervalMs = Number(process.env.WAIT_FOR_MIGRATIONS_INTERVAL_SECONDS ?? 5) * 1000;

function say(message) {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), msg: `wait-for-migrations: ${message}` })}\n`);
}

async function main() {
  if (!url) {
    process.stderr.write('wait-for-migrations: DATABASE_URL is required\n');
    process.exit(1);
  }
  for (;;) {
    try {
      // This image's migrations not yet recorded in the database (all of them before the first migration).
      const pending = await pendingMigrationsAt(url, 'wait-for-migrations');
      if (pending.length === 0) {
        say('every migration of this image is applied');
        return;
      }
      say(`${pending.length} migration(s) not applied yet, first ${pending[0]}; waiting for the migrate Job`);
    } catch (error) {
      say(`database not reachable yet: ${error instanceof Error ? error.message : String(error)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

process.once('SIGTERM', () => process.exit(143));
void main();
