import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Another `npm start` runs on this data directory. */
export class AlreadyRunning extends Error {}

/** Whether `pid` is another process that runs (a stale file may name this process's pid, reused after a reboot). */
const rival = (pid: number | undefined): pid is number => {
  if (pid === undefined || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Rounds of "the file changed under this claim" before giving up: each needs a rival to act in between. */
const ATTEMPTS = 10;

/**
 * Claims `<dataDir>/start.pid` for this process, or throws AlreadyRunning when the pid it names is alive. A file
 * left by a supervisor that died (SIGKILL) names a dead pid and is taken over. Returns the release.
 *
 * Of supervisors starting together, one holds the file, and a reader never sees it empty or half-written: it is
 * written whole under this process's own name, then linked into place (which fails if the file exists) or, over
 * a stale file, renamed onto it. The name is never vacant during a takeover, so a claim cannot slip in between.
 */
export function claimPidFile(dataDir: string): () => void {
  const file = path.join(dataDir, 'start.pid');
  const own = `${file}.${process.pid}`;
  writePid(own, file);
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (linked(own, file)) return () => release(file);
      const seen = read(file);
      const holder = pidIn(seen);
      if (rival(holder)) throw alreadyRunning(dataDir, holder);
      if (seen !== undefined && tookOver(file, own, seen, dataDir)) return () => release(file);
    }
    throw new Error(`could not claim ${file}: other supervisors kept changing it`);
  } finally {
    rmSync(own, { force: true });
  }
}

/**
 * Replaces the stale `file` with `own`, if it still reads `stale`. Takeovers are one at a time, under
 * `start.pid.takeover` (this process's pid): only a takeover changes a stale file, so what was read still holds when
 * the rename runs. A takeover in progress by a live process means another supervisor is starting.
 */
function tookOver(file: string, own: string, stale: string, dataDir: string): boolean {
  const marker = `${file}.takeover`;
  if (!linked(own, marker)) {
    const taker = pidIn(read(marker));
    if (rival(taker)) throw alreadyRunning(dataDir, taker);
    // Left by a takeover that died midway.
    rmSync(marker, { force: true });
    return false;
  }
  try {
    if (read(file) !== stale) return false;
    renameSync(own, file);
    return true;
  } finally {
    rmSync(marker, { force: true });
  }
}

/** Links `target` to `name` unless `name` exists. */
function linked(target: string, name: string): boolean {
  try {
    linkSync(target, name);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function release(file: string): void {
  if (pidIn(read(file)) === process.pid) rmSync(file, { force: true });
}

const alreadyRunning = (dataDir: string, pid: number) =>
  new AlreadyRunning(`npm start is already running on ${dataDir} (pid ${pid}); stop it (Ctrl-C in its terminal, or kill ${pid}) first`);

/** Writes this process's pid to `own`; a write that fails (a full disk) names the pid file and leaves nothing. */
function writePid(own: string, file: string): void {
  try {
    writeFileSync(own, `${process.pid}\n`);
  } catch (error) {
    rmSync(own, { force: true });
    throw new Error(`could not write ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** The file's text, or undefined when it is absent (or cannot be read). */
function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function pidIn(text: string | undefined): number | undefined {
  const pid = Number(text?.trim());
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}
