/**
 * Idle memory of the system on one machine: boots it with `start` on a scratch data directory and free ports, lets
 * it idle, then reads from /proc the resident set size of the process of `start` (which runs the three apps) and of
 * each Node process it started (the PostgreSQL host; an app, when the apps ran as child processes). Prints a table.
 */
import { commandLine, rssMb } from '@storage/testing';
import { nameOfNodeProcess } from './process-names';
import { startScratchSystem } from './scratch-system';

const IDLE_MS = 10_000;
/** The three apps' share of the machine, idle (issue 39). */
const GOAL_MB = 150;
/** The most the process running the three apps may take, else the bench fails. */
const CEILING_MB = 200;

async function main(): Promise<void> {
  const system = await startScratchSystem();
  process.stdout.write(`system ready; idling ${IDLE_MS / 1000} s\n`);
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const rows = [
    { process: 'npm start', rss: rssMb(system.pid) },
    ...system.startedNodeProcesses().map((pid) => ({ process: nameOfNodeProcess(commandLine(pid)), rss: rssMb(pid) })),
  ];
  await system.stop();
  const apps = rows.filter((row) => row.process !== 'PostgreSQL host').reduce((sum, row) => sum + row.rss, 0);
  const all = rows.reduce((sum, row) => sum + row.rss, 0);
  process.stdout.write('\n| Node process | idle RSS (MB) |\n|---|---|\n');
  for (const row of rows) process.stdout.write(`| ${row.process} | ${row.rss.toFixed(0)} |\n`);
  process.stdout.write(`| all Node processes | ${all.toFixed(0)} |\n`);
  process.stdout.write(`\nthe apps (npm start and any app process): ${apps.toFixed(0)} MB; goal ≤ ${GOAL_MB} MB ${apps <= GOAL_MB ? 'met' : 'not met'}\n`);
  if (!(rows[0].rss < CEILING_MB)) {
    process.stdout.write(`npm start's process over ${CEILING_MB} MB\n`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
