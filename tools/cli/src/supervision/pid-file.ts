import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Another `npm start` runs on this data directory. */
export class AlreadyRunning extends Error {}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Claims `<dataDir>/start.pid` for this process, or throws AlreadyRunning when the pid it names is alive. A file
 * left by a supervisor that died (SIGKILL) names a dead pid and is taken over. Returns the release.
 */
export function claimPidFile(dataDir: string): () => void {
  const file = path.join(dataDir, 'start.pid');
  for (let attempt = 0; ; attempt++) {
    let created: number;
    try {
      // `wx`: of two supervisors starting together, one creates the file.
      created = openSync(file, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const pid = readPid(file);
      if (pid !== undefined && pid !== process.pid && alive(pid)) {
        throw new AlreadyRunning(`npm start is already running on ${dataDir} (pid ${pid}); stop it (Ctrl-C in its terminal, or kill ${pid}) first`);
      }
      rmSync(file, { force: true });
      continue;
    }
    writePid(file, created);
    return () => {
      if (readPid(file) === process.pid) rmSync(file, { force: true });
    };
  }
}

/** Writes this process's pid to the file just created; a write that fails (a full disk) names the file and leaves none. */
function writePid(file: string, created: number): void {
  try {
    writeSync(created, `${process.pid}\n`);
  } catch (error) {
    rmSync(file, { force: true });
    throw new Error(`could not write ${file}: ${(error as Error).message}`, { cause: error });
  } finally {
    closeSync(created);
  }
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
