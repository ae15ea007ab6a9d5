/**
 * `npm run bench:footprint`: what the system costs on one machine as a user drives it. Boots `npm start` (the three
 * apps in one process, embedded PostgreSQL) on a scratch data directory, subscribes a local HTTPS receiver to
 * rent-change through the public API, then changes rents through the public API, open loop. Prints: RSS of every
 * application process (all but PostgreSQL's server processes) idle and under 100 events/s; CPU per 10k deliveries and p50 / p99 from the api's answer to the
 * arrival at the receiver at 100 and 500 events/s; idle CPU per minute of every process, PostgreSQL's included,
 * measured some minutes after the load, once the pools have given back the connections the boot opened and left idle
 * (a one-off at their idle timeout, not a cost of each idle minute). Each figure with its target and the machine's load average, and each rate with
 * the host's speed before and after it (`hostSpeed`: a shared VM's host can slow every figure by half or more).
 *
 * Shorter runs: BENCH_SECONDS (measured seconds at 100 events/s, default 60), BENCH_BURST_SECONDS (at 500 events/s,
 * default 10), BENCH_WARM_SECONDS (unmeasured seconds at 100 events/s first, default 30), BENCH_QUIET_AFTER_SECONDS
 * (least wait after the load before idle is measured, default 120), BENCH_IDLE_SECONDS (idle window, default 60).
 * Profiling: BENCH_NODE_ARGS, flags for the apps' processes (`--cpu-prof --cpu-prof-dir=<dir>`). BENCH_APART=1 runs
 * each app alone in its process, as deployed (`node apps/<app>/dist/main.js`), on the embedded PostgreSQL.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { POOL_IDLE_TIMEOUT_MS } from '@storage/persistence';
import { certificate, hostSpeed, loadAverage, openLoop, Receiver } from '@storage/testing';
import { AnswerToArrival } from './answer-to-arrival';
import { PublicApi } from './public-api';
import { changeKeyOf, RentChanges } from './rent-changes';
import { eventLoopUtilization, startScratchSystem } from './scratch-system';
import { cpuBetween, SystemMeter, totalCpu, type CpuUsed } from './system-meter';

const seconds = (variable: string, fallback: number): number => Number(process.env[variable] ?? fallback);
const MEASURED_SECONDS = seconds('BENCH_SECONDS', 60);
const BURST_SECONDS = seconds('BENCH_BURST_SECONDS', 10);
const WARM_SECONDS = seconds('BENCH_WARM_SECONDS', 30);
const QUIET_AFTER_SECONDS = seconds('BENCH_QUIET_AFTER_SECONDS', 120);
const IDLE_SECONDS = seconds('BENCH_IDLE_SECONDS', 60);
/** Idle after boot before the idle RSS is read, as `bench:idle-memory` reads it. */
const IDLE_RSS_SECONDS = 10;
/** BENCH_APART=1: each app alone in its process, as deployed, instead of the three in `npm start`'s. */
const APART = process.env.BENCH_APART === '1';
const PORTFOLIO = 'demo';
/** Past the pools' idle timeout since boot, so that the connections left idle since then have closed before the idle window. */
const POOL_CLOSE_MARGIN_MS = 15_000;
/** The deliveries of a run must all arrive within this after its last answer. */
const ARRIVAL_TIMEOUT_MS = 60_000;

const HOST_SPEED_ROW = (phase: string): string => `the host's speed before / after ${phase}: a fixed workload took (lower is faster)`;
const percent = (share: number): string => `${(share * 100).toFixed(0)} %`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const started = performance.now();
const progress = (line: string): void => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

interface Row {
  measure: string;
  value: string;
  target: string;
  load: string;
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(tmpdir(), 'bench-footprint-'));
  const tls = await certificate(work);
  progress(`starting ${APART ? 'the three apps apart, each in its process' : 'npm start'} (load average ${loadAverage()})`);
  const system = await startScratchSystem(
    {
      // The receiver listens on loopback with a certificate of its own: the dispatcher is told to reach and trust it.
      WEBHOOK_ALLOWED_SUBNETS: '127.0.0.1/32',
      NODE_EXTRA_CA_CERTS: tls.certFile,
      // An integrator sending 500 rent changes a second has its key's limit raised (default 100/s); the limiter still runs.
      RATE_LIMIT_KEY_PER_MINUTE: '60000',
      RATE_LIMIT_KEY_BURST: '1000',
    },
    { apart: APART },
  );
  const rows: Row[] = [];
  const row = (measure: string, value: string, target = ''): void => {
    rows.push({ measure, value, target, load: loadAverage() });
    progress(`${measure}: ${value}`);
  };
  const receiver = new Receiver(tls, (event, at) => run.arrived(changeKeyOf(event), at));
  const api = new PublicApi(system.apiPort, (await readFile(path.join(system.dataDir, 'demo-api-key'), 'utf8')).trim());
  let run = new AnswerToArrival();
  let closeMeter = async (): Promise<void> => undefined;
  try {
    const meter = await SystemMeter.of(system);
    closeMeter = () => meter.close();
    const ready = performance.now();
    progress(`system ready; idling ${IDLE_RSS_SECONDS} s`);
    await sleep(IDLE_RSS_SECONDS * 1000);
    const idleRss = meter.rss();
    for (const { process, rss } of idleRss.byProcess) row(`RSS idle after boot, ${process}`, `${rss.toFixed(0)} MB`);
    row('RSS idle after boot, all application processes', `${idleRss.total.toFixed(0)} MB`, '<= 150 MB');

    const origin = await receiver.listen();
    await api.ok('POST', '/api/v1/webhooks/subscriptions', {
      vendorName: 'footprint bench',
      targetUrl: `${origin}/footprint`,
      eventTypes: ['rent-change'],
      description: 'bench:footprint receiver',
      portfolio: PORTFOLIO,
    });
    const changes = await RentChanges.of(api, PORTFOLIO, (key, at) => run.answered(key, at));
    progress(`subscribed ${origin}/footprint to rent-change; changing the rents of ${changes.rentalCount} rentals in turn`);

    let sent = 0;
    /** `rate` rent changes a second for `duration` s, open loop, until every delivery has arrived: its latencies, CPU and peak RSS. */
    const paced = async (name: string, rate: number, duration: number) => {
      run = new AnswerToArrival();
      const speedBefore = hostSpeed();
      const failuresBefore = changes.failures;
      await meter.nameBackends();
      const before = meter.cpu();
      const loopsBefore = await system.eventLoops();
      const benchBefore = process.cpuUsage();
      let peak = meter.rss().total;
      const sampler = setInterval(() => (peak = Math.max(peak, meter.rss().total)), 1_000);
      progress(`${name}: ${rate * duration} rent changes at ${rate}/s`);
      await openLoop(rate, rate * duration, () => changes.send(sent++));
      const failures = changes.failures - failuresBefore;
      const expected = rate * duration - failures;
      const deadline = performance.now() + ARRIVAL_TIMEOUT_MS;
      while (run.latencies.length < expected && performance.now() < deadline) await sleep(10);
      clearInterval(sampler);
      await meter.nameBackends();
      const cpu = cpuBetween(before, meter.cpu());
      if (run.latencies.length < expected) progress(`  ${name}: only ${run.latencies.length} of ${expected} deliveries arrived`);
      const loopsAfter = await system.eventLoops();
      const loops = [...loopsAfter].map(([process, after]) => `${process} ${percent(eventLoopUtilization(loopsBefore.get(process)!, after))}`).join(', ');
      const benchCpu = process.cpuUsage(benchBefore);
      const own = (benchCpu.user + benchCpu.system) / 1e6;
      progress(
        `  ${name}: CPU s apps ${cpu.apps.toFixed(2)}, PostgreSQL ${postgresBreakdown(cpu, (cpuSeconds) => cpuSeconds.toFixed(2))}, this bench ${own.toFixed(2)}`,
      );
      const speed = `${speedBefore.toFixed(0)} / ${hostSpeed().toFixed(0)} ms`;
      return { latencies: run, cpu, loops, own, peak, failures, delivered: run.latencies.length, count: rate * duration, speed };
    };
    type Paced = Awaited<ReturnType<typeof paced>>;
    const per10k = (result: Paced, cpuSeconds: number) => ((cpuSeconds * 10_000) / result.delivered).toFixed(1);
    const cpuRow = (result: Paced) =>
      `${per10k(result, totalCpu(result.cpu))} (apps ${per10k(result, result.cpu.apps)}, PostgreSQL ${per10k(result, result.cpu.postgres)})`;
    const counted = (result: Paced) => `${result.delivered} of ${result.count} delivered${result.failures ? `, ${result.failures} answers not 200` : ''}`;

    // Unmeasured: fresh V8 compiles the hot paths, pools and TLS connections open.
    await paced('warm-up', 100, WARM_SECONDS);
    const at100 = await paced('100 events/s', 100, MEASURED_SECONDS);
    row(`RSS under 100 events/s (peak of ${MEASURED_SECONDS} s), all application processes`, `${at100.peak.toFixed(0)} MB`);
    row(`CPU s per 10k deliveries at 100 events/s through the api, all processes (${counted(at100)})`, cpuRow(at100), '<= 30');
    row(
      BY_PROCESS_ROW,
      cpuByProcess(at100.cpu, (cpuSeconds) => per10k(at100, cpuSeconds)),
    );
    row(`answer -> arrival p50 / p99 / max at 100 events/s`, at100.latencies.summary());
    row(`event loop busy at 100 events/s`, at100.loops);
    row(HOST_SPEED_ROW('100 events/s'), at100.speed);

    // Unmeasured: going from 100 to 500 events/s opens connections.
    await paced('warm-up at 500/s', 500, 2);
    const at500 = await paced('500 events/s', 500, BURST_SECONDS);
    row(`CPU s per 10k deliveries at 500 events/s, all processes (${counted(at500)})`, cpuRow(at500));
    row(
      BY_PROCESS_ROW,
      cpuByProcess(at500.cpu, (cpuSeconds) => per10k(at500, cpuSeconds)),
    );
    row(`answer -> arrival p50 / p99 / max at 500 events/s`, at500.latencies.summary(), 'p99 <= 8 ms');
    row(`event loop busy at 500 events/s`, at500.loops);
    row(HOST_SPEED_ROW('500 events/s'), at500.speed);
    // The load and the receiver share the machine with the system: what they took is what the system could not use.
    row(`this bench's own CPU s per 10k at 100 / 500 events/s (load and HTTPS receiver)`, `${per10k(at100, at100.own)} / ${per10k(at500, at500.own)}`);

    // A pool closes a connection nobody used for POOL_IDLE_TIMEOUT_MS: those the boot opened and the load did not
    // reuse close that long after boot, each backend's exit a few ms of PostgreSQL's CPU. Paid once, after minutes of
    // idleness: the window waits for it, so that it shows what each idle minute costs.
    const quiet = Math.max(QUIET_AFTER_SECONDS * 1000, ready + POOL_IDLE_TIMEOUT_MS + POOL_CLOSE_MARGIN_MS - performance.now());
    progress(
      `quiet: ${(quiet / 1000).toFixed(0)} s (at least ${QUIET_AFTER_SECONDS} s after the load, and past the pools' idle timeout since boot), then ${IDLE_SECONDS} s measured`,
    );
    await sleep(quiet);
    const idleBefore = meter.cpu();
    await sleep(IDLE_SECONDS * 1000);
    const idle = cpuBetween(idleBefore, meter.cpu());
    const perMinute = (cpuSeconds: number) => ((cpuSeconds * 60) / IDLE_SECONDS).toFixed(3);
    row(
      `idle CPU s per minute, ${(quiet / 1000).toFixed(0)} s after the load, all processes`,
      `${perMinute(totalCpu(idle))} (apps ${perMinute(idle.apps)}, PostgreSQL ${perMinute(idle.postgres)})`,
      '<= 0.05',
    );
    row('  of which PostgreSQL by process', postgresBreakdown(idle, perMinute));
  } finally {
    api.close();
    await receiver.close();
    await closeMeter();
    await system.stop();
    await rm(work, { recursive: true, force: true });
  }
  process.stdout.write(`\n| measure | value | target | load average |\n|---|---|---|---|\n`);
  for (const r of rows) process.stdout.write(`| ${r.measure} | ${r.value} | ${r.target} | ${r.load} |\n`);
}

const BY_PROCESS_ROW = "  of which by process (PostgreSQL's backends by the application they serve)";

/** The application processes, then PostgreSQL's, that used any CPU, each most first. */
function cpuByProcess(used: CpuUsed, format: (cpuSeconds: number) => string): string {
  const apps = [...used.appsByProcess].sort((a, b) => b[1] - a[1]).map(([name, cpuSeconds]) => `${name} ${format(cpuSeconds)}`);
  return `${apps.join(', ')}; PostgreSQL: ${postgresBreakdown(used, format)}`;
}

/** The PostgreSQL processes that used any CPU, most first. */
function postgresBreakdown(used: CpuUsed, format: (cpuSeconds: number) => string): string {
  const kinds = [...used.postgresByKind].filter(([, cpuSeconds]) => cpuSeconds >= 0.005).sort((a, b) => b[1] - a[1]);
  return kinds.length === 0 ? 'none' : kinds.map(([kind, cpuSeconds]) => `${kind} ${format(cpuSeconds)}`).join(', ');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
