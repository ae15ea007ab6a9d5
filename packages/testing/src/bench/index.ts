/** What the benches share: the system's processes read from /proc, a local HTTPS receiver, an open-loop pacer, figures. */
export { certificate, Receiver, type DeliveredEvent } from './https-receiver';
export { hostSpeed, loadAverage, percentile } from './figures';
export { openLoop } from './open-loop';
export {
  backendNames,
  childPids,
  commandLine,
  descendantPids,
  isRunning,
  postgresCpuByKind,
  postgresCpuSeconds,
  postgresProcesses,
  postmasterPid,
  type PostgresProcesses,
  processCpuSeconds,
  rssMb,
} from './process-stats';
export { wallClock } from './wall-clock';
