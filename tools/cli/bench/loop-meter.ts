/**
 * Preloaded (`node -r`) by the footprint benches into each process that runs apps (`start`'s, or each app's when they
 * run apart): on SIGUSR2 writes the event loop's cumulative busy and idle milliseconds
 * (`performance.eventLoopUtilization()`) to BENCH_LOOP_METER_FILE, so a bench can tell how busy that loop was in each
 * phase. Costs nothing between readings.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const file = process.env.BENCH_LOOP_METER_FILE;
if (file) {
  let reading = 0;
  process.on('SIGUSR2', () => {
    const { active, idle } = performance.eventLoopUtilization();
    // Renamed into place: the bench never reads a half-written file.
    writeFileSync(`${file}.tmp`, JSON.stringify({ reading: ++reading, active, idle }));
    renameSync(`${file}.tmp`, file);
  });
}
