export { bootWith, configProblems, expectBootRefused, secretValue } from './boot';
export { launchBrowser } from './browser';
export { startCpuBurner, type CpuBurner } from './cpu-burner';
export { eventually, type EventuallyOptions } from './eventually';
export { sessionsWaitingForLocks } from './lock-waits';
export { describeWithKafka, testKafkaBrokers } from './kafka';
export { createTestDatabase, type TestDatabase } from './test-database';
export { insertRentalParents, type RentalParents } from './parents';
export { startServiceProcess, type ServiceProcess } from './service-process';
export { freePort } from '@storage/persistence';

/** Spread into a workspace's jest config to give its tests a real, migrated PostgreSQL. */
export const jestDatabaseSetup = {
  globalSetup: require.resolve('./global-setup'),
  globalTeardown: require.resolve('./global-teardown'),
};
export {
  backendNames,
  certificate,
  childPids,
  commandLine,
  descendantPids,
  isRunning,
  hostSpeed,
  loadAverage,
  openLoop,
  percentile,
  postgresCpuByKind,
  postgresCpuSeconds,
  postgresProcesses,
  postmasterPid,
  processCpuSeconds,
  Receiver,
  rssMb,
  wallClock,
  type DeliveredEvent,
  type PostgresProcesses,
} from './bench';
