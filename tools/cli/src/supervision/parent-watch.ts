/**
 * Preloaded (`node --require`) into every service `npm start` runs. File descriptor 3 is a pipe whose other end
 * only the supervisor holds: the kernel closes it when the supervisor dies, whatever killed it (SIGKILL
 * included), so the service shuts down as on SIGTERM instead of living on as an orphan.
 */
import { Socket } from 'node:net';
import { Worker } from 'node:worker_threads';

const GRACE_MS = 5_000;

/**
 * Kills this process after the grace period from a worker thread: a graceful stop can block the main thread for
 * good (a log transport flushing at exit into the pipe of the dead supervisor waits on a futex), where its timers never fire.
 */
function killAfterGrace(): void {
  const watchdog = new Worker(`setTimeout(() => process.kill(${process.pid}, 'SIGKILL'), ${GRACE_MS});`, { eval: true });
  watchdog.unref();
}

try {
  const supervisor = new Socket({ fd: 3, readable: true, writable: false });
  const supervisorGone = (): void => {
    killAfterGrace();
    process.kill(process.pid, 'SIGTERM');
  };
  supervisor.once('end', supervisorGone);
  supervisor.once('error', supervisorGone);
  supervisor.resume();
  supervisor.unref();
} catch {
  // No pipe on fd 3: not started by the supervisor.
}
