import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';

/** The value at percentile `p` (0 to 100) of ascending `sorted` values. */
export const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** The machine's load average over 1, 5 and 15 minutes, as /proc/loadavg gives it: every figure of a shared machine is read beside it. */
export const loadAverage = (): string =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** Prints the median of 5 timings (ms) of a chain of 30,000 SHA-256 digests, after one run that warms it up. */
const REFERENCE_WORKLOAD = `
const { createHash } = require('node:crypto');
const once = () => {
  const started = performance.now();
  let digest = Buffer.alloc(1024, 7);
  for (let i = 0; i < 30000; i++) digest = createHash('sha256').update(digest).digest();
  return performance.now() - started;
};
once();
const runs = Array.from({ length: 5 }, once).sort((a, b) => a - b);
process.stdout.write(String(runs[2]));
`;

/**
 * Milliseconds a fixed CPU-bound workload takes on one core now, in a fresh Node process (the caller's heap and
 * event loop do not count). The host of a shared VM slows every figure by as much, which the load average does not
 * show: on the 2-core machine the same workload took from 1 to 2.5 times its fastest within a minute. Takes about
 * half a second: read it between phases, not during one.
 */
export function hostSpeed(): number {
  return Number(execFileSync(process.execPath, ['-e', REFERENCE_WORKLOAD], { encoding: 'utf8' }));
}
