/**
 * Idle memory of each service: boots the system with `start` on a scratch data directory and free ports,
 * lets it idle, then reads each service's resident set size from /proc. Prints a table.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

// Compiled to dist-bench/bench/ (bench/tsconfig.json): up to the workspace, then to the repository.
const repoRoot = path.resolve(__dirname, '..', '..', '..');
const IDLE_MS = 10_000;
const SERVICES = [
  { name: 'api', entry: 'apps/api/dist/main.js', port: 3100, variable: 'API_PORT' },
  { name: 'webhook-dispatcher', entry: 'apps/webhook-dispatcher/dist/main.js', port: 3101, variable: 'DISPATCHER_PORT' },
  { name: 'delinquency-scheduler', entry: 'apps/delinquency-scheduler/dist/main.js', port: 3102, variable: 'SCHEDULER_PORT' },
];

const rssMb = (pid: number): number => {
  const line =
    readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:')) ?? '';
  return Number(line.replace(/\D+/g, '')) / 1024;
};

function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

const commandLine = (pid: number): string => readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'storage-idle-'));
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    EMBEDDED_POSTGRES_PORT: '54399',
    LOG_LEVEL: 'warn',
    ...Object.fromEntries(SERVICES.map((s) => [s.variable, String(s.port)])),
  };
  const supervisor = spawn(process.execPath, [path.join(repoRoot, 'tools/cli/dist/main.js'), 'start'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  supervisor.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 120_000;
  while (!output.includes('is ready')) {
    if (Date.now() > deadline || supervisor.exitCode !== null) throw new Error(`the system did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  process.stdout.write(`system ready; idling ${IDLE_MS / 1000} s\n`);
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const pids = childPids(supervisor.pid!);
  const rows = SERVICES.map((service) => {
    const pid = pids.find((p) => commandLine(p).includes(service.entry));
    return { service: service.name, rss: pid ? rssMb(pid) : NaN };
  });
  supervisor.kill('SIGINT');
  await new Promise((resolve) => supervisor.once('exit', resolve));
  await rm(dataDir, { recursive: true, force: true });
  process.stdout.write('\n| service | idle RSS (MB) | target |\n|---|---|---|\n');
  for (const row of rows) process.stdout.write(`| ${row.service} | ${row.rss.toFixed(0)} | < 200 ${row.rss < 200 ? 'ok' : 'MISSED'} |\n`);
  if (rows.some((row) => !(row.rss < 200))) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
