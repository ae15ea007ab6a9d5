/** A validated `replay` command. */
export interface ReplayCommand {
  group: string;
  from: Date;
  to: Date | undefined;
  redeliver: boolean;
}

/** Bad arguments: the CLI prints the message and the usage, and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The replay would start before events outbox retention has already deleted. */
export class EventsPruned extends Error {
  override readonly name = 'EventsPruned';
}
