import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

export interface CpuBurner {
  stop: () => Promise<void>;
}

/**
 * Loads every core of the machine with a busy process, as another tenant of a shared machine would, so a test can show
 * that what it checks does not depend on the machine's speed. Stopped by `stop()`; each burner also ends itself when
 * the test process dies (its stdin closes).
 */
export function startCpuBurner(processes = availableParallelism()): CpuBurner {
  const burners = Array.from({ length: processes }, () =>
    spawn(
      process.execPath,
      [
        '-e',
        "process.stdin.on('close', () => process.exit(0)); setImmediate(function burn() { const until = Date.now() + 50; while (Date.now() < until); setImmediate(burn); });",
      ],
      {
        stdio: ['pipe', 'ignore', 'ignore'],
      },
    ),
  );
  return {
    stop: async () => {
      await Promise.all(
        burners.map(
          (burner) =>
            new Promise<void>((resolve) => {
              if (burner.exitCode !== null || burner.signalCode !== null) return resolve();
              burner.once('exit', () => resolve());
              burner.kill('SIGKILL');
            }),
        ),
      );
    },
  };
}
