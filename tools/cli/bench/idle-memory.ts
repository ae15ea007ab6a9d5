/**
 * Idle memory of the system on one machine: boots it with `start` on a scratch data directory and free ports, lets
 * it idle, then reads from /proc the resident set size of every application process: the process of `start` (which
 * runs the three apps) and each process it started besides PostgreSQL's server (the sentinel that stops the server
 * should `start` die; an app, when the apps ran as child processes). Prints a table.
 */
import { loadAverage, rssMb } from '@storage/testing';
import { startScratchSystem } from './scratch-system';

const IDLE_MS = 10_000;
/** The application processes' share of the machine, idle (issue 39). */
const GOAL_MB = 150;
/** The most the application processes may take together, else the bench fails. */
const CEILING_MB = 200;

async function main(): Promise<void> {
  const system = await startScratchSystem();
  process.stdout.write(`system ready; idling ${IDLE_MS / 1000} s\n`);
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const rows = system.applicationProcesses().map(({ pid, name }) => ({ process: name, rss: rssMb(pid) }));
  await system.stop();
  const all = rows.reduce((sum, row) => sum + row.rss, 0);
  process.stdout.write('\n| application process | idle RSS (MB) |\n|---|---|\n');
  for (const row of rows) process.stdout.write(`| ${row.process} | ${row.rss.toFixed(0)} |\n`);
  process.stdout.write(`| RSS idle after boot, all application processes | ${all.toFixed(0)} |\n`);
  process.stdout.write(`\ngoal ≤ ${GOAL_MB} MB ${all <= GOAL_MB ? 'met' : 'not met'} (load average ${loadAverage()})\n`);
  if (!(all < CEILING_MB)) {
    process.stdout.write(`the application processes take over ${CEILING_MB} MB\n`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
