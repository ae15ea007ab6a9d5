import { loadavg } from 'node:os';

/** The value at percentile `p` (0 to 100) of ascending `sorted` values. */
export const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** The machine's load average over 1, 5 and 15 minutes, as /proc/loadavg gives it: every figure of a shared machine is read beside it. */
export const loadAverage = (): string =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
