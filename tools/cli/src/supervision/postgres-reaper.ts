/**
 * `node postgres-reaper.js <postmaster pid>`, started by the supervisor once it has started the embedded
 * PostgreSQL. Its stdin is a pipe only the supervisor holds, closed by the kernel however the supervisor ends:
 * then, if the server is still running (the supervisor was killed before it could stop it), it is stopped
 * (SIGINT, PostgreSQL's fast shutdown) rather than left running without an owner.
 */
import { readFileSync } from 'node:fs';

const postmaster = Number(process.argv[2]);

// A closing terminal or Ctrl-C signals the whole process group: this process outlives the supervisor to do its job.
for (const signal of ['SIGHUP', 'SIGINT', 'SIGTERM'] as const) process.on(signal, () => undefined);

const isPostgres = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    return true; // no /proc: trust the pid the supervisor gave
  }
};

const supervisorGone = (): void => {
  if (Number.isSafeInteger(postmaster) && postmaster > 0 && isPostgres(postmaster)) process.kill(postmaster, 'SIGINT');
  process.exit(0);
};
process.stdin.once('end', supervisorGone);
process.stdin.once('error', supervisorGone);
process.stdin.resume();
